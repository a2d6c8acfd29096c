/**
 * Naming, label and bucket conventions shared by every controller metric, the one
 * {@link io.micrometer.core.instrument.config.MeterFilter} that applies them, and the
 * failure isolation that keeps recording from ever breaking the caller.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.metrics;

import org.jspecify.annotations.NullMarked;
