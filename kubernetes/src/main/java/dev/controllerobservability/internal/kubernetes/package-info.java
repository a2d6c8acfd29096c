/**
 * The names, labels, buckets and native histograms of client-go's and
 * controller-runtime's standard metrics, and the per-controller meters behind
 * {@link dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics}.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.kubernetes;

import org.jspecify.annotations.NullMarked;
