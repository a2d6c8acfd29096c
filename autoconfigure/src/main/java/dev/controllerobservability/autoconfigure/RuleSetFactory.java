package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.InvalidRuleException;
import dev.controllerobservability.internal.rules.OperationRules;
import dev.controllerobservability.internal.rules.PromQl;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.internal.rules.RuleTemplates;
import dev.controllerobservability.internal.rules.RuleValidator;

/**
 * Builds the {@link RuleSet} from the checked
 * {@link ControllerObservabilitySettings.Rules} and the operations: placeholders such as
 * {@code ${operation.launch.duration}} resolved to the operations' metric names, then
 * every rule checked as Prometheus would read it, every mistake an
 * {@link InvalidObservabilityPropertyException} naming the property.
 */
final class RuleSetFactory {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private RuleSetFactory() {
	}

	static RuleSet create(ControllerObservabilitySettings settings, ControllerOperations operations) {
		ControllerObservabilitySettings.Rules configured = settings.rules();
		RuleTemplates templates = new RuleTemplates(settings.namespace(), operations::describe);
		List<RecordingRule> recordingRules = new ArrayList<>();
		List<AlertRule> alerts = new ArrayList<>();
		configured.operations().forEach((operation, rules) -> {
			String property = "rules.operations." + operation;
			int firstRecording = recordingRules.size();
			int firstAlert = alerts.size();
			OperationRules.add(settings.namespace(), operations.describe(operation), rules, recordingRules, alerts);
			recordingRules.subList(firstRecording, recordingRules.size())
				.forEach((rule) -> check(property, () -> RuleValidator.validate(rule)));
			alerts.subList(firstAlert, alerts.size())
				.forEach((rule) -> check(property, () -> RuleValidator.validate(rule)));
		});
		configured.recordingRules().forEach((name, recording) -> {
			String property = "recording-rules[" + name + "]";
			check(property, () -> {
				RecordingRule rule = new RecordingRule(name, templates.resolve(name, "expr", recording.expr()),
						recording.labels());
				RuleValidator.validate(rule);
				recordingRules.add(rule);
			});
		});
		configured.alerts().forEach((name, alert) -> {
			String property = "alerts." + name;
			check(property, () -> {
				AlertRule rule = new AlertRule(name, templates.resolve(name, "expr", alert.expr()), alert.forDuration(),
						(alert.severity() != null) ? alert.severity().toString() : null,
						templates.resolve(name, "summary", alert.summary()),
						templates.resolve(name, "description", alert.description()), alert.runbookUrl(), alert.labels(),
						alert.annotations());
				RuleValidator.validate(rule);
				alerts.add(rule);
			});
		});
		return new RuleSet(configured.group(), recordingRules, alerts);
	}

	private static void check(String property, Runnable validation) {
		try {
			validation.run();
		}
		catch (InvalidRuleException ex) {
			throw InvalidObservabilityPropertyException.of(PREFIX + property, ex, "");
		}
	}

	/**
	 * The operations known before their first call: declared under
	 * {@code operations.definitions} or given built-in rules.
	 */
	static List<String> operationNames(ControllerObservabilitySettings settings) {
		Set<String> names = new LinkedHashSet<>(settings.operations().definitions().keySet());
		settings.rules().operations().keySet().forEach((name) -> names.add(MetricNames.toSnakeCase(name)));
		return List.copyOf(names);
	}

}
