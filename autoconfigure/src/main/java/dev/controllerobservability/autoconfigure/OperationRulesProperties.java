package dev.controllerobservability.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

import dev.controllerobservability.rules.AlertSeverity;

/**
 * The built-in rules of one operation.
 *
 * @param errorRatio Alert when the share of failed calls is too high.
 * @param latency Alert when a latency quantile is too high.
 * @param stuck Alert when calls stay in flight while none completes.
 */
public record OperationRulesProperties(@DefaultValue ErrorRatio errorRatio, @DefaultValue Latency latency,
		@DefaultValue Stuck stuck) {

	/**
	 * The error-ratio alert of an operation: fires when the share of failed calls stays
	 * above the threshold for 10m by default.
	 *
	 * @param enabled Whether to generate the alert and its recording rules.
	 * @param forDuration How long the condition must hold before the alert fires; the
	 * property is {@code for}.
	 * @param severity Severity: critical, warning or info.
	 * @param threshold Share of failed calls above which the alert fires, between 0 and
	 * 1.
	 */
	public record ErrorRatio(boolean enabled, @Name("for") @DefaultValue("10m") String forDuration,
			@DefaultValue("WARNING") AlertSeverity severity, @DefaultValue("0.05") double threshold) {

	}

	/**
	 * The latency alert of an operation: fires when the latency quantile stays above the
	 * threshold for 10m by default.
	 *
	 * @param enabled Whether to generate the alert and its recording rules.
	 * @param forDuration How long the condition must hold before the alert fires; the
	 * property is {@code for}.
	 * @param severity Severity: critical, warning or info.
	 * @param quantile Latency quantile, between 0 and 1.
	 * @param threshold Latency above which the alert fires.
	 */
	public record Latency(boolean enabled, @Name("for") @DefaultValue("10m") String forDuration,
			@DefaultValue("WARNING") AlertSeverity severity, @DefaultValue("0.99") double quantile,
			@DefaultValue("10s") Duration threshold) {

	}

	/**
	 * The stuck-in-flight alert of an operation: fires when calls stay in flight while
	 * none completes, for 15m by default.
	 *
	 * @param enabled Whether to generate the alert and its recording rules.
	 * @param forDuration How long the condition must hold before the alert fires; the
	 * property is {@code for}.
	 * @param severity Severity: critical, warning or info.
	 */
	public record Stuck(boolean enabled, @Name("for") @DefaultValue("15m") String forDuration,
			@DefaultValue("WARNING") AlertSeverity severity) {

	}

}
