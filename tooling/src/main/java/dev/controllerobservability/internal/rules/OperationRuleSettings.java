package dev.controllerobservability.internal.rules;

/**
 * Which built-in rules an operation gets, and their thresholds.
 *
 * @param window rate window of the recording rules, such as {@code 5m}
 * @param errorRatio alert when the share of failed calls exceeds a threshold, or
 * {@code null}
 * @param latency alert when a latency quantile exceeds a threshold, or {@code null}
 * @param stuck alert when calls stay in flight too long, or {@code null}
 */
public record OperationRuleSettings(String window, ErrorRatio errorRatio, Latency latency, Stuck stuck) {

	/**
	 * The error-ratio alert.
	 *
	 * @param threshold share of failed calls, between 0 and 1
	 * @param forDuration how long it must hold
	 * @param severity the alert's severity
	 */
	public record ErrorRatio(double threshold, String forDuration, String severity) {
	}

	/**
	 * The latency alert.
	 *
	 * @param quantile the quantile, such as 0.99
	 * @param thresholdSeconds latency threshold in seconds
	 * @param forDuration how long it must hold
	 * @param severity the alert's severity
	 */
	public record Latency(double quantile, double thresholdSeconds, String forDuration, String severity) {
	}

	/**
	 * The stuck-in-flight alert.
	 *
	 * @param forDuration how long calls may stay in flight
	 * @param severity the alert's severity
	 */
	public record Stuck(String forDuration, String severity) {
	}

}
