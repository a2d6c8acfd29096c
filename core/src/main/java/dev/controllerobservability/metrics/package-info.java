/**
 * Naming, label and bucket conventions shared by every controller metric, the one
 * {@link io.micrometer.core.instrument.config.MeterFilter} that applies them, and the
 * failure isolation that keeps recording from ever breaking the caller.
 * <p>
 * This package does not depend on Spring.
 */
package dev.controllerobservability.metrics;
