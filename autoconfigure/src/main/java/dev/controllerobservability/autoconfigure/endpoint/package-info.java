/**
 * Actuator endpoints of the starter: the controller's metrics, their lint findings and
 * the generated rules and artefacts.
 */
@NullMarked
package dev.controllerobservability.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
