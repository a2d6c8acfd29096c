package dev.controllerobservability.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.core.env.Environment;

import dev.controllerobservability.internal.rules.OperationRuleSettings;
import dev.controllerobservability.internal.rules.RuleSettingRules;
import dev.controllerobservability.internal.rules.RuleSettings;
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
		RulesProperties configured = properties.getRules();
		String window = RuleSettingRules.window(configured.getWindow());
		Map<String, OperationRuleSettings> operations = new LinkedHashMap<>();
		configured.getOperations()
			.forEach((operation, rules) -> operations.put(RuleSettingRules.operationName(operation),
					operationSettings(operation, window, rules)));
		Map<String, RecordingRule> recordingRules = new LinkedHashMap<>();
		properties.getRecordingRules()
			.forEach((name, recording) -> recordingRules.put(name,
					new RecordingRule(name, recording.getExpr(), recording.getLabels())));
		Map<String, AlertRule> alerts = new LinkedHashMap<>();
		properties.getAlerts()
			.forEach((name, alert) -> alerts.put(name,
					new AlertRule(name, alert.getExpr(), alert.getFor(),
							(alert.getSeverity() != null) ? alert.getSeverity().toString() : null, alert.getSummary(),
							alert.getDescription(), alert.getRunbookUrl(), alert.getLabels(), alert.getAnnotations())));
		String group = RuleSettingRules
			.group((configured.getGroup() != null) ? configured.getGroup() : namespace + ".rules", namespace);
		Map<String, String> ruleLabels = Collections.unmodifiableMap(
				RuleSettingRules.prometheusRuleLabels(new LinkedHashMap<>(configured.getPrometheusRuleLabels())));
		String applicationName = environment.getProperty("spring.application.name", namespace);
		return new RuleSettings(window, group, ruleLabels, Collections.unmodifiableMap(operations),
				Collections.unmodifiableMap(recordingRules), Collections.unmodifiableMap(alerts),
				ScrapeTargetFactory.create(properties.getScrape(), ruleLabels, environment, applicationName));
	}

	private static OperationRuleSettings operationSettings(String operation, String window,
			OperationRulesProperties rules) {
		var error = rules.getErrorRatio();
		var slow = rules.getLatency();
		var inFlight = rules.getStuck();
		return new OperationRuleSettings(window,
				error.isEnabled() ? new OperationRuleSettings.ErrorRatio(operation, error.getThreshold(),
						error.getFor(), error.getSeverity()) : null,
				slow.isEnabled() ? new OperationRuleSettings.Latency(operation, slow.getQuantile(), slow.getThreshold(),
						slow.getFor(), slow.getSeverity()) : null,
				inFlight.isEnabled()
						? new OperationRuleSettings.Stuck(operation, inFlight.getFor(), inFlight.getSeverity()) : null);
	}

}
