package dev.controllerobservability.autoconfigure.rules;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.InvalidRuleException;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.ControllerObservabilitySettings;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

/**
 * Builds the {@link RuleSet} from the checked
 * {@link ControllerObservabilitySettings.Rules} and the operations through
 * {@link RuleSet#builder}, which resolves the placeholders and checks every rule as
 * Prometheus would read it; each refusal becomes an
 * {@link InvalidObservabilityPropertyException} naming the property.
 */
final class RuleSetFactory {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private RuleSetFactory() {
	}

	static RuleSet create(ControllerObservabilitySettings settings, ControllerOperations operations) {
		ControllerObservabilitySettings.Rules configured = settings.rules();
		RuleSet.Builder builder = RuleSet.builder(settings.namespace(), operations::describe)
			.window(configured.window())
			.group(configured.group());
		configured.operations().forEach((operation, rules) -> {
			if (rules.errorRatio() != null) {
				builder.errorRatioAlert(operation, rules.errorRatio().threshold(), rules.errorRatio().forDuration(),
						rules.errorRatio().severity());
			}
			if (rules.latency() != null) {
				builder.latencyAlert(operation, rules.latency().quantile(), rules.latency().threshold(),
						rules.latency().forDuration(), rules.latency().severity());
			}
			if (rules.stuck() != null) {
				builder.stuckAlert(operation, rules.stuck().forDuration(), rules.stuck().severity());
			}
		});
		configured.recordingRules()
			.forEach((name, recording) -> builder
				.recordingRule(new RecordingRule(name, recording.expr(), recording.labels())));
		configured.alerts()
			.forEach((name,
					alert) -> builder.alert(new AlertRule(name, alert.expr(), alert.forDuration(),
							(alert.severity() != null) ? alert.severity().toString() : null, alert.summary(),
							alert.description(), alert.runbookUrl(), alert.labels(), alert.annotations())));
		try {
			return builder.build();
		}
		catch (InvalidSettingException ex) {
			throw InvalidObservabilityPropertyException.of(ex);
		}
		catch (InvalidRuleException ex) {
			throw InvalidObservabilityPropertyException.of(PREFIX + property(configured, ex.getRule()), ex, "");
		}
	}

	/** The property a refused rule came from: an alert, a recording rule, or built in. */
	private static String property(ControllerObservabilitySettings.Rules configured, String rule) {
		if (configured.alerts().containsKey(rule)) {
			return "alerts." + rule;
		}
		return configured.recordingRules().containsKey(rule) ? "recording-rules[" + rule + "]" : "rules.operations";
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
