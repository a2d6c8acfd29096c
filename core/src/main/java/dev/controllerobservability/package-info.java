/**
 * Controller Observability without Spring:
 * {@link dev.controllerobservability.ControllerObservability} builds operation timing and
 * the declared metrics on a Micrometer registry of your own.
 */
@NullMarked
package dev.controllerobservability;

import org.jspecify.annotations.NullMarked;
