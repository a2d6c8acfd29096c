package dev.controllerobservability.internal.rules;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.settings.Setting;

/**
 * Which built-in alerts read the webhook metrics, each checked when created:
 * {@code RuleSet.Builder} and the Spring Boot properties both create them.
 *
 * @param errors alert when too many webhook requests are answered with a non-2xx code, or
 * {@code null}
 * @param latency alert when the p99 webhook latency stays high, or {@code null}
 * @param panics alert when a webhook handler throws, or {@code null}
 */
public record WebhookRuleSettings(ResourceStateRuleSettings.@Nullable Alert errors,
		ResourceStateRuleSettings.@Nullable Alert latency, ResourceStateRuleSettings.@Nullable Alert panics) {

	/** No webhook alerts. */
	public static final WebhookRuleSettings NONE = new WebhookRuleSettings(null, null, null);

	/** The settings of {@link #errors}. */
	public static final Setting ERRORS = new Setting("kubernetes.webhooks.alerts.errors",
			"RuleSet.Builder.webhookErrorsAlert(…)");

	/** The settings of {@link #latency}. */
	public static final Setting LATENCY = new Setting("kubernetes.webhooks.alerts.latency",
			"RuleSet.Builder.webhookLatencyAlert(…)");

	/** The settings of {@link #panics}. */
	public static final Setting PANICS = new Setting("kubernetes.webhooks.alerts.panics",
			"RuleSet.Builder.webhookPanicsAlert(…)");

}
