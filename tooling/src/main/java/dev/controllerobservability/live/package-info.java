/**
 * The running controller's metrics as they are exposed and declared, and what is
 * generated from them: the reference, the lint report, the rules, the monitors and the
 * dashboard.
 * <p>
 * This package does not depend on Spring; the Spring Boot starter makes its types beans.
 */
@NullMarked
package dev.controllerobservability.live;

import org.jspecify.annotations.NullMarked;
