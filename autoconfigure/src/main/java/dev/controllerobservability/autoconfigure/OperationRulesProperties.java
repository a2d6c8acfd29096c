package dev.controllerobservability.autoconfigure;

import java.time.Duration;

import dev.controllerobservability.rules.AlertSeverity;

/**
 * The built-in rules of one operation.
 */
public class OperationRulesProperties {

	/**
	 * Alert when the share of failed calls is too high.
	 */
	private final ErrorRatio errorRatio = new ErrorRatio();

	/**
	 * Alert when a latency quantile is too high.
	 */
	private final Latency latency = new Latency();

	/**
	 * Alert when calls stay in flight while none completes.
	 */
	private final Stuck stuck = new Stuck();

	public ErrorRatio getErrorRatio() {
		return this.errorRatio;
	}

	public Latency getLatency() {
		return this.latency;
	}

	public Stuck getStuck() {
		return this.stuck;
	}

	/**
	 * The error-ratio alert of an operation.
	 */
	public static class ErrorRatio {

		/**
		 * Whether to generate the alert and its recording rules.
		 */
		private boolean enabled;

		/**
		 * Share of failed calls above which the alert fires, between 0 and 1.
		 */
		private double threshold = 0.05;

		/**
		 * How long the ratio must stay above the threshold.
		 */
		private String forDuration = "10m";

		/**
		 * Severity: critical, warning or info.
		 */
		private AlertSeverity severity = AlertSeverity.WARNING;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public double getThreshold() {
			return this.threshold;
		}

		public void setThreshold(double threshold) {
			this.threshold = threshold;
		}

		public String getFor() {
			return this.forDuration;
		}

		public void setFor(String forDuration) {
			this.forDuration = forDuration;
		}

		public AlertSeverity getSeverity() {
			return this.severity;
		}

		public void setSeverity(AlertSeverity severity) {
			this.severity = severity;
		}

	}

	/**
	 * The latency alert of an operation.
	 */
	public static class Latency {

		/**
		 * Whether to generate the alert and its recording rule.
		 */
		private boolean enabled;

		/**
		 * Latency quantile, between 0 and 1.
		 */
		private double quantile = 0.99;

		/**
		 * Latency above which the alert fires.
		 */
		private Duration threshold = Duration.ofSeconds(10);

		/**
		 * How long the latency must stay above the threshold.
		 */
		private String forDuration = "10m";

		/**
		 * Severity: critical, warning or info.
		 */
		private AlertSeverity severity = AlertSeverity.WARNING;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public double getQuantile() {
			return this.quantile;
		}

		public void setQuantile(double quantile) {
			this.quantile = quantile;
		}

		public Duration getThreshold() {
			return this.threshold;
		}

		public void setThreshold(Duration threshold) {
			this.threshold = threshold;
		}

		public String getFor() {
			return this.forDuration;
		}

		public void setFor(String forDuration) {
			this.forDuration = forDuration;
		}

		public AlertSeverity getSeverity() {
			return this.severity;
		}

		public void setSeverity(AlertSeverity severity) {
			this.severity = severity;
		}

	}

	/**
	 * The stuck-in-flight alert of an operation.
	 */
	public static class Stuck {

		/**
		 * Whether to generate the alert.
		 */
		private boolean enabled;

		/**
		 * How long calls may stay in flight while none completes.
		 */
		private String forDuration = "15m";

		/**
		 * Severity: critical, warning or info.
		 */
		private AlertSeverity severity = AlertSeverity.WARNING;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getFor() {
			return this.forDuration;
		}

		public void setFor(String forDuration) {
			this.forDuration = forDuration;
		}

		public AlertSeverity getSeverity() {
			return this.severity;
		}

		public void setSeverity(AlertSeverity severity) {
			this.severity = severity;
		}

	}

}
