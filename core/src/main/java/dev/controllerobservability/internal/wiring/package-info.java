/**
 * How the parts of Controller Observability are made from checked settings: once, for the
 * core builder and the Spring Boot auto-configuration alike.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.wiring;

import org.jspecify.annotations.NullMarked;
