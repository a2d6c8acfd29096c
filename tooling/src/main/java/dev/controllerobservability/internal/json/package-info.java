/**
 * The JSON layout of the metrics reference and the Grafana dashboard, written with
 * Jackson.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.json;

import org.jspecify.annotations.NullMarked;
