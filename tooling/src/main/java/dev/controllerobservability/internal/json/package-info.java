/**
 * The JSON writer of the metrics reference and the Grafana dashboard, small enough that
 * the tooling needs no JSON library.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.json;

import org.jspecify.annotations.NullMarked;
