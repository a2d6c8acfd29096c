/**
 * What {@link dev.controllerobservability.operations.ControllerOperations} records into:
 * the resolved names and labels of an operation, its observation context, the meter
 * handler that turns operation observations into a duration histogram and an in-flight
 * gauge, and the series the direct path records into.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.operations;

import org.jspecify.annotations.NullMarked;
