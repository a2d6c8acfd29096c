/**
 * Rules and lint auto-configuration: the rule set, the generated artefacts (rules file,
 * {@code PrometheusRule}, monitors, dashboard), the live view of the metrics and the
 * start-up checks of the rules and the linter.
 */
@NullMarked
package dev.controllerobservability.autoconfigure.rules;

import org.jspecify.annotations.NullMarked;
