package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.internal.operations.OperationDescriptor;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.InvalidRuleException;
import dev.controllerobservability.internal.rules.OperationRuleSettings;
import dev.controllerobservability.internal.rules.OperationRules;
import dev.controllerobservability.internal.rules.PromQl;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.internal.rules.RuleTemplates;
import dev.controllerobservability.internal.rules.RuleValidator;

/**
 * Builds the {@link RuleSet} from {@code controller.observability.alerts},
 * {@code recording-rules} and {@code rules.operations}: placeholders resolved, every rule
 * checked, every mistake an {@link InvalidObservabilityPropertyException} naming the
 * property.
 */
final class RuleSetFactory {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private static final Pattern KUBERNETES_LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

	private static final Pattern KUBERNETES_LABEL_PREFIX = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private RuleSetFactory() {
	}

	static RuleSet create(ControllerObservabilitySettings settings, ControllerOperations operations) {
		ControllerObservabilitySettings.Rules configured = settings.rules();
		String window = configured.window();
		if (!PromQl.isDuration(window)) {
			throw new InvalidObservabilityPropertyException(PREFIX + "rules.window", window,
					"the rate window is a Prometheus duration", "Write it like 5m");
		}
		RuleTemplates templates = new RuleTemplates(settings.namespace(), operations::describe);
		List<RecordingRule> recordingRules = new ArrayList<>();
		List<AlertRule> alerts = new ArrayList<>();
		configured.operations().forEach((operation, rules) -> {
			String property = "rules.operations." + operation;
			OperationDescriptor descriptor = describe(operations, property, operation);
			int firstRecording = recordingRules.size();
			int firstAlert = alerts.size();
			OperationRules.add(settings.namespace(), descriptor, operationSettings(property, window, rules),
					recordingRules, alerts);
			recordingRules.subList(firstRecording, recordingRules.size())
				.forEach((rule) -> check(property, () -> RuleValidator.validate(rule)));
			alerts.subList(firstAlert, alerts.size())
				.forEach((rule) -> check(property, () -> RuleValidator.validate(rule)));
		});
		configured.recordingRules().forEach((name, recording) -> {
			String property = "recording-rules[" + name + "]";
			RecordingRule rule = new RecordingRule(name, templates.resolve(name, "expr", recording.getExpr()),
					recording.getLabels());
			check(property, () -> RuleValidator.validate(rule));
			recordingRules.add(rule);
		});
		configured.alerts().forEach((name, alert) -> {
			String property = "alerts." + name;
			check(property, () -> {
				AlertRule rule = new AlertRule(name, templates.resolve(name, "expr", alert.getExpr()), alert.getFor(),
						alert.getSeverity(), templates.resolve(name, "summary", alert.getSummary()),
						templates.resolve(name, "description", alert.getDescription()), alert.getRunbookUrl(),
						alert.getLabels(), alert.getAnnotations());
				RuleValidator.validate(rule);
				alerts.add(rule);
			});
		});
		String group = (configured.group() != null) ? configured.group() : settings.namespace() + ".rules";
		if (group.isBlank()) {
			throw new InvalidObservabilityPropertyException(PREFIX + "rules.group", group,
					"a rule group needs a name; promtool and Prometheus reject a group without one",
					"Set a name such as '" + settings.namespace() + ".rules', or remove the property for that default");
		}
		kubernetesLabels(PREFIX + "rules.prometheus-rule-labels", configured.prometheusRuleLabels(), "PrometheusRule");
		return new RuleSet(group, recordingRules, alerts);
	}

	/**
	 * Kubernetes label syntax, which the API server enforces.
	 * @param prefix the property of the labels, such as
	 * {@code controller.observability.rules.prometheus-rule-labels}
	 * @param labels the labels
	 * @param resource the kind of resource that would carry them, for the message
	 */
	static void kubernetesLabels(String prefix, Map<String, String> labels, String resource) {
		labels.forEach((key, value) -> {
			String property = prefix + "[" + key + "]";
			int slash = key.lastIndexOf('/');
			String keyPrefix = (slash >= 0) ? key.substring(0, slash) : null;
			String name = key.substring(slash + 1);
			if ((keyPrefix != null
					&& (keyPrefix.length() > 253 || !KUBERNETES_LABEL_PREFIX.matcher(keyPrefix).matches()))
					|| name.length() > 63 || !KUBERNETES_LABEL_NAME.matcher(name).matches()) {
				throw new InvalidObservabilityPropertyException(property, key,
						"'" + key + "' is not a Kubernetes label key (an optional DNS prefix and '/', then at most 63 "
								+ "letters, digits, '-', '_' or '.', starting and ending with a letter or digit), so "
								+ "the API server rejects the " + resource,
						"Use a key such as 'release' or '[app.kubernetes.io/part-of]' (brackets keep '.' and '/')");
			}
			if (value == null || value.length() > 63
					|| (!value.isEmpty() && !KUBERNETES_LABEL_NAME.matcher(value).matches())) {
				throw new InvalidObservabilityPropertyException(property, value,
						"a Kubernetes label value has at most 63 letters, digits, '-', '_' or '.', starting and ending "
								+ "with a letter or digit, so the API server rejects the " + resource,
						"Use a value such as 'prometheus'");
			}
		});
	}

	private static OperationDescriptor describe(ControllerOperations operations, String property, String operation) {
		try {
			return operations.describe(operation);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidObservabilityPropertyException(PREFIX + property, operation, ex.getMessage(),
					"Key the rules by an operation name such as launch or apply-packing");
		}
	}

	private static OperationRuleSettings operationSettings(String property, String window,
			ControllerObservabilityProperties.OperationRules rules) {
		OperationRuleSettings.ErrorRatio errorRatio = null;
		OperationRuleSettings.Latency latency = null;
		OperationRuleSettings.Stuck stuck = null;
		var error = rules.getErrorRatio();
		if (error.isEnabled()) {
			if (!(error.getThreshold() > 0 && error.getThreshold() <= 1)) {
				throw new InvalidObservabilityPropertyException(PREFIX + property + ".error-ratio.threshold",
						error.getThreshold(), "the error ratio threshold is a share of calls",
						"Set a number above 0 and at most 1, such as 0.05");
			}
			alertFields(property + ".error-ratio", error.getFor(), error.getSeverity());
			errorRatio = new OperationRuleSettings.ErrorRatio(error.getThreshold(), error.getFor(),
					error.getSeverity());
		}
		var slow = rules.getLatency();
		if (slow.isEnabled()) {
			if (!(slow.getQuantile() > 0 && slow.getQuantile() < 1)) {
				throw new InvalidObservabilityPropertyException(PREFIX + property + ".latency.quantile",
						slow.getQuantile(), "a quantile lies between 0 and 1", "Set it like 0.99");
			}
			if (slow.getThreshold() == null || slow.getThreshold().isNegative() || slow.getThreshold().isZero()) {
				throw new InvalidObservabilityPropertyException(PREFIX + property + ".latency.threshold",
						slow.getThreshold(), "the latency threshold must be positive", "Set it like 10s");
			}
			alertFields(property + ".latency", slow.getFor(), slow.getSeverity());
			latency = new OperationRuleSettings.Latency(slow.getQuantile(), slow.getThreshold().toMillis() / 1000.0,
					slow.getFor(), slow.getSeverity());
		}
		var inFlight = rules.getStuck();
		if (inFlight.isEnabled()) {
			alertFields(property + ".stuck", inFlight.getFor(), inFlight.getSeverity());
			stuck = new OperationRuleSettings.Stuck(inFlight.getFor(), inFlight.getSeverity());
		}
		return new OperationRuleSettings(window, errorRatio, latency, stuck);
	}

	private static void alertFields(String property, String forDuration, String severity) {
		if (!PromQl.isDuration(forDuration)) {
			throw new InvalidObservabilityPropertyException(PREFIX + property + ".for", forDuration,
					"'for' is a Prometheus duration", "Write it like 10m");
		}
		if (!RuleValidator.SEVERITIES.contains(severity)) {
			throw new InvalidObservabilityPropertyException(PREFIX + property + ".severity", severity,
					"the severity is not one of " + RuleValidator.SEVERITIES.stream().sorted().toList(),
					"Set severity to critical, warning or info");
		}
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
