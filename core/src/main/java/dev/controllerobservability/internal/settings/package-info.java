/**
 * The settings of Controller Observability and the one set of rules that checks them, for
 * the core builder and the Spring Boot properties alike.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.settings;

import org.jspecify.annotations.NullMarked;
