/**
 * Operation timing: {@link dev.controllerobservability.operations.ControllerOperations}
 * and {@link dev.controllerobservability.operations.ObservedOperation} time controller
 * operations such as {@code bind} through the Micrometer Observation API, and
 * {@link dev.controllerobservability.internal.operations.OperationMeterObservationHandler}
 * turns them into a duration histogram and an in-flight gauge per operation.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.operations;

import org.jspecify.annotations.NullMarked;
