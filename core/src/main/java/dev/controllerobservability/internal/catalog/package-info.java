/**
 * The declarative catalog behind
 * {@link dev.controllerobservability.catalog.ControllerMetrics}: definitions validated
 * and indexed by name, the collector that registers their meters, and the catalog's own
 * self-metrics.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.catalog;

import org.jspecify.annotations.NullMarked;
