package dev.controllerobservability.internal.rules;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.rules.AlertSeverity;

/**
 * Which built-in rules an operation gets, and their thresholds, each checked when
 * created: {@code RuleSet.Builder} and the Spring Boot properties both create them, so
 * both refuse the same value for the same reason.
 *
 * @param window rate window of the recording rules, such as {@code 5m}
 * @param errorRatio alert when the share of failed calls exceeds a threshold, or
 * {@code null}
 * @param latency alert when a latency quantile exceeds a threshold, or {@code null}
 * @param stuck alert when calls stay in flight too long, or {@code null}
 */
public record OperationRuleSettings(String window, @Nullable ErrorRatio errorRatio, @Nullable Latency latency,
		@Nullable Stuck stuck) {

	public OperationRuleSettings {
		RuleSettingRules.window(window);
	}

	/**
	 * The error-ratio alert.
	 *
	 * @param operation the operation, as given
	 * @param threshold share of failed calls, above 0 and at most 1
	 * @param forDuration how long it must hold
	 * @param severity the alert's severity
	 */
	public record ErrorRatio(String operation, double threshold, String forDuration, AlertSeverity severity) {

		public ErrorRatio {
			Setting setting = RuleSettingRules.builtInRule(operation, "error-ratio", "errorRatioAlert");
			RuleSettingRules.errorRatioThreshold(setting, threshold);
			RuleSettingRules.alertFields(setting, forDuration, severity);
		}

	}

	/**
	 * The latency alert.
	 *
	 * @param operation the operation, as given
	 * @param quantile the quantile, such as 0.99
	 * @param threshold latency above which it fires
	 * @param forDuration how long it must hold
	 * @param severity the alert's severity
	 */
	public record Latency(String operation, double quantile, Duration threshold, String forDuration,
			AlertSeverity severity) {

		public Latency {
			Setting setting = RuleSettingRules.builtInRule(operation, "latency", "latencyAlert");
			RuleSettingRules.quantile(setting, quantile);
			RuleSettingRules.latencyThreshold(setting, threshold);
			RuleSettingRules.alertFields(setting, forDuration, severity);
		}

		/**
		 * The threshold as PromQL compares it.
		 * @return the threshold in seconds
		 */
		public double thresholdSeconds() {
			return this.threshold.toMillis() / 1000.0;
		}

	}

	/**
	 * The stuck-in-flight alert.
	 *
	 * @param operation the operation, as given
	 * @param forDuration how long calls may stay in flight
	 * @param severity the alert's severity
	 */
	public record Stuck(String operation, String forDuration, AlertSeverity severity) {

		public Stuck {
			RuleSettingRules.alertFields(RuleSettingRules.builtInRule(operation, "stuck", "stuckAlert"), forDuration,
					severity);
		}

	}

}
