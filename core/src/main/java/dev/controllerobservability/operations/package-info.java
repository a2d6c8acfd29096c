/**
 * Operation timing: {@link dev.controllerobservability.operations.ControllerOperations}
 * and {@link dev.controllerobservability.operations.ObservedOperation} time controller
 * operations such as {@code bind}, through the Micrometer Observation API or straight
 * into their meters, and
 * {@link dev.controllerobservability.internal.operations.OperationRecorder} turns them
 * into a duration histogram and an in-flight gauge per operation.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.operations;

import org.jspecify.annotations.NullMarked;
