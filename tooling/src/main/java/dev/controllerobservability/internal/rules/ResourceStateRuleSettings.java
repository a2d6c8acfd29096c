package dev.controllerobservability.internal.rules;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.rules.AlertSeverity;

/**
 * Which built-in alerts read the resource state metrics, each checked when created:
 * {@code RuleSet.Builder} and the Spring Boot properties both create them.
 *
 * @param notReady alert when a resource's {@code Ready} condition stays not {@code True},
 * or {@code null}
 * @param generationNotReconciled alert when a resource's generation stays above its
 * observed generation, or {@code null}
 */
public record ResourceStateRuleSettings(@Nullable Alert notReady, @Nullable Alert generationNotReconciled) {

	/** The settings of {@link #notReady}. */
	public static final Setting NOT_READY = new Setting("kubernetes.resource-state.alerts.not-ready",
			"RuleSet.Builder.resourceNotReadyAlert(…)");

	/** The settings of {@link #generationNotReconciled}. */
	public static final Setting GENERATION_NOT_RECONCILED = new Setting(
			"kubernetes.resource-state.alerts.generation-not-reconciled",
			"RuleSet.Builder.resourceGenerationNotReconciledAlert(…)");

	/**
	 * One alert.
	 *
	 * @param forDuration how long the condition must hold, such as {@code 15m}
	 * @param severity the alert's severity
	 */
	public record Alert(String forDuration, AlertSeverity severity) {

		/**
		 * Checks the alert's fields.
		 * @param setting the setting they came from
		 * @param forDuration how long the condition must hold
		 * @param severity the alert's severity
		 * @return the alert
		 */
		public static Alert of(Setting setting, @Nullable String forDuration, @Nullable AlertSeverity severity) {
			RuleSettingRules.alertFields(setting, forDuration, severity);
			return new Alert(forDuration, severity);
		}

	}

}
