package dev.controllerobservability.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.core.env.Environment;

import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;
import dev.controllerobservability.internal.rules.LeaderElectionRuleSettings;
import dev.controllerobservability.internal.rules.OperationRuleSettings;
import dev.controllerobservability.internal.rules.ResourceStateRuleSettings;
import dev.controllerobservability.internal.rules.WebhookRuleSettings;
import dev.controllerobservability.internal.rules.RuleSettingRules;
import dev.controllerobservability.internal.rules.RuleSettings;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RecordingRule;

/**
 * Binds {@code controller.observability.rules.*}, {@code recording-rules}, {@code alerts}
 * and {@code scrape.*} into {@link RuleSettings}. The checks are the tooling's, the ones
 * {@code RuleSet.Builder} and {@code ScrapeTarget} apply: every value that can be judged
 * without the operations' metric names is judged here, at start-up; what the placeholders
 * resolve to when the rule set is built.
 */
final class RulesResolver {

	private RulesResolver() {
	}

	static RuleSettings resolve(ControllerObservabilityProperties properties, String namespace,
			Environment environment) {
		RulesProperties configured = properties.rules();
		String window = RuleSettingRules.window(configured.window());
		Map<String, OperationRuleSettings> operations = new LinkedHashMap<>();
		configured.operations()
			.forEach((operation, rules) -> operations.put(RuleSettingRules.operationName(operation),
					operationSettings(operation, window, rules)));
		Map<String, RecordingRule> recordingRules = new LinkedHashMap<>();
		properties.recordingRules()
			.forEach((name, recording) -> recordingRules.put(name,
					new RecordingRule(name, recording.expr(), recording.labels())));
		Map<String, AlertRule> alerts = new LinkedHashMap<>();
		properties.alerts()
			.forEach((name, alert) -> alerts.put(name,
					new AlertRule(name, alert.expr(), alert.forDuration(),
							(alert.severity() != null) ? alert.severity().toString() : null, alert.summary(),
							alert.description(), alert.runbookUrl(), alert.labels(), alert.annotations())));
		String group = RuleSettingRules.group((configured.group() != null) ? configured.group() : namespace + ".rules",
				namespace);
		Map<String, String> ruleLabels = Collections.unmodifiableMap(
				RuleSettingRules.prometheusRuleLabels(new LinkedHashMap<>(configured.prometheusRuleLabels())));
		String applicationName = environment.getProperty("spring.application.name", namespace);
		return new RuleSettings(window, group, ruleLabels, Collections.unmodifiableMap(operations),
				Collections.unmodifiableMap(recordingRules), Collections.unmodifiableMap(alerts),
				ScrapeTargetFactory.create(properties.scrape(), ruleLabels, environment, applicationName),
				resourceStateRules(properties.kubernetes()), webhookRules(properties.kubernetes()),
				leaderElectionRules(properties.kubernetes()));
	}

	/**
	 * The leader-election alerts switched on. They are opt-in: only the application knows
	 * whether its replicas join an election. {@code RuleSet.Builder} leaves out the ones
	 * that read a family in {@code disabled-metrics}.
	 */
	private static LeaderElectionRuleSettings leaderElectionRules(KubernetesProperties kubernetes) {
		KubernetesProperties.LeaderElectionAlerts alerts = kubernetes.leaderElection().alerts();
		if (!alerts.enabled() || !kubernetes.enabled()) {
			return LeaderElectionRuleSettings.NONE;
		}
		return new LeaderElectionRuleSettings(alert(LeaderElectionRuleSettings.NO_LEADER, alerts.noLeader()),
				alert(LeaderElectionRuleSettings.RECONCILING_WITHOUT_LEASE, alerts.reconcilingWithoutLease()));
	}

	/**
	 * The webhook alerts switched on; {@code RuleSet.Builder} leaves out the ones that
	 * read a family in {@code disabled-metrics}, as the dashboard leaves out its panel.
	 */
	private static WebhookRuleSettings webhookRules(KubernetesProperties kubernetes) {
		KubernetesProperties.Webhooks webhooks = kubernetes.webhooks();
		KubernetesProperties.WebhookAlerts alerts = webhooks.alerts();
		boolean declared = !webhooks.admissionPaths().isEmpty() || !webhooks.conversionPaths().isEmpty();
		boolean enabled = (alerts.enabled() != null) ? alerts.enabled() : declared;
		if (!enabled || !kubernetes.enabled()) {
			return WebhookRuleSettings.NONE;
		}
		return new WebhookRuleSettings(alert(WebhookRuleSettings.ERRORS, alerts.errors()),
				alert(WebhookRuleSettings.LATENCY, alerts.latency()),
				alert(WebhookRuleSettings.PANICS, alerts.panics()));
	}

	private static ResourceStateRuleSettings resourceStateRules(KubernetesProperties kubernetes) {
		KubernetesProperties.Alerts alerts = kubernetes.resourceState().alerts();
		if (Boolean.TRUE.equals(alerts.enabled()) && !kubernetes.resourceState().enabled()) {
			String prefix = ControllerObservabilityProperties.PREFIX + ".kubernetes.resource-state.";
			throw new InvalidObservabilityPropertyException(prefix + "alerts.enabled", "true",
					"the resource state alerts read the resource state metrics, which " + prefix
							+ "enabled=false leaves undeclared",
					"Set " + prefix + "enabled=true, or leave " + prefix + "alerts.enabled out");
		}
		boolean enabled = (alerts.enabled() != null) ? alerts.enabled() : kubernetes.resourceState().enabled();
		if (!enabled || !kubernetes.enabled()) {
			return new ResourceStateRuleSettings(null, null);
		}
		return new ResourceStateRuleSettings(alert(ResourceStateRuleSettings.NOT_READY, alerts.notReady()),
				alert(ResourceStateRuleSettings.GENERATION_NOT_RECONCILED, alerts.generationNotReconciled()));
	}

	private static ResourceStateRuleSettings.Alert alert(Setting setting, KubernetesProperties.BuiltInAlert alert) {
		return ResourceStateRuleSettings.Alert.of(setting, alert.forDuration(), alert.severity());
	}

	private static OperationRuleSettings operationSettings(String operation, String window,
			OperationRulesProperties rules) {
		var error = rules.errorRatio();
		var slow = rules.latency();
		var inFlight = rules.stuck();
		return new OperationRuleSettings(window,
				error.enabled() ? new OperationRuleSettings.ErrorRatio(operation, error.threshold(),
						error.forDuration(), error.severity()) : null,
				slow.enabled() ? new OperationRuleSettings.Latency(operation, slow.quantile(), slow.threshold(),
						slow.forDuration(), slow.severity()) : null,
				inFlight.enabled()
						? new OperationRuleSettings.Stuck(operation, inFlight.forDuration(), inFlight.severity())
						: null);
	}

}
