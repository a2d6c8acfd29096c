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
	 * What every built-in alert of an operation has.
	 */
	public abstract static class Alert {

		/**
		 * Whether to generate the alert and its recording rules.
		 */
		private boolean enabled;

		/**
		 * How long the condition must hold before the alert fires.
		 */
		private String forDuration;

		/**
		 * Severity: critical, warning or info.
		 */
		private AlertSeverity severity = AlertSeverity.WARNING;

		Alert(String forDuration) {
			this.forDuration = forDuration;
		}

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

	/**
	 * The error-ratio alert of an operation: fires when the share of failed calls stays
	 * above the threshold for 10m by default.
	 */
	public static class ErrorRatio extends Alert {

		/**
		 * Share of failed calls above which the alert fires, between 0 and 1.
		 */
		private double threshold = 0.05;

		public ErrorRatio() {
			super("10m");
		}

		public double getThreshold() {
			return this.threshold;
		}

		public void setThreshold(double threshold) {
			this.threshold = threshold;
		}

	}

	/**
	 * The latency alert of an operation: fires when the latency quantile stays above the
	 * threshold for 10m by default.
	 */
	public static class Latency extends Alert {

		/**
		 * Latency quantile, between 0 and 1.
		 */
		private double quantile = 0.99;

		/**
		 * Latency above which the alert fires.
		 */
		private Duration threshold = Duration.ofSeconds(10);

		public Latency() {
			super("10m");
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

	}

	/**
	 * The stuck-in-flight alert of an operation: fires when calls stay in flight while
	 * none completes, for 15m by default.
	 */
	public static class Stuck extends Alert {

		public Stuck() {
			super("15m");
		}

	}

}
