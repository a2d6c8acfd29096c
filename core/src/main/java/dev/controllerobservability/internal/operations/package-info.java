/**
 * What {@link dev.controllerobservability.operations.ControllerOperations} records
 * through: {@link dev.controllerobservability.internal.operations.OperationResolver}
 * turns a call's name and tags into its resolved operation and labels,
 * {@link dev.controllerobservability.internal.operations.OperationRecorder} times the
 * call (directly or through an observation, being the observations' meter handler) and
 * records it, and
 * {@link dev.controllerobservability.internal.operations.OperationDurations} holds the
 * durations: Micrometer timers or Prometheus histograms.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.operations;

import org.jspecify.annotations.NullMarked;
