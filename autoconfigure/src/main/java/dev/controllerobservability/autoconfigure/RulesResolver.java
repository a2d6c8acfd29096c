package dev.controllerobservability.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.core.env.Environment;

import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.rules.AlertSeverity;
import dev.controllerobservability.internal.rules.OperationRuleSettings;
import dev.controllerobservability.internal.rules.PromQl;

/**
 * Resolves and checks {@code controller.observability.rules.*}, {@code recording-rules},
 * {@code alerts} and {@code scrape.*} into {@link ControllerObservabilitySettings.Rules}:
 * every value that can be judged without the operations' metric names (rate window,
 * group, labels, thresholds, durations, severities, the scrape target). What the
 * placeholders resolve to is checked when the rule set is built.
 */
final class RulesResolver {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private static final Pattern KUBERNETES_LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

	private static final Pattern KUBERNETES_LABEL_PREFIX = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private RulesResolver() {
	}

	static ControllerObservabilitySettings.Rules resolve(ControllerObservabilityProperties properties, String namespace,
			Environment environment) {
		RulesProperties configured = properties.getRules();
		String window = configured.getWindow();
		if (!PromQl.isDuration(window)) {
			throw new InvalidObservabilityPropertyException(PREFIX + "rules.window", window,
					"the rate window is a Prometheus duration", "Write it like 5m");
		}
		Map<String, OperationRuleSettings> operations = new LinkedHashMap<>();
		configured.getOperations()
			.forEach((operation, rules) -> operations.put(operation,
					operationSettings("rules.operations." + operation, operation, window, rules)));
		Map<String, ControllerObservabilitySettings.Recording> recordingRules = new LinkedHashMap<>();
		properties.getRecordingRules()
			.forEach((name, recording) -> recordingRules.put(name,
					new ControllerObservabilitySettings.Recording(recording.getExpr(), recording.getLabels())));
		Map<String, ControllerObservabilitySettings.Alert> alerts = new LinkedHashMap<>();
		properties.getAlerts()
			.forEach((name, alert) -> alerts.put(name,
					new ControllerObservabilitySettings.Alert(alert.getExpr(), alert.getFor(), alert.getSeverity(),
							alert.getSummary(), alert.getDescription(), alert.getRunbookUrl(), alert.getLabels(),
							alert.getAnnotations())));
		String group = (configured.getGroup() != null) ? configured.getGroup() : namespace + ".rules";
		if (group.isBlank()) {
			throw new InvalidObservabilityPropertyException(PREFIX + "rules.group", group,
					"a rule group needs a name; promtool and Prometheus reject a group without one",
					"Set a name such as '" + namespace + ".rules', or remove the property for that default");
		}
		Map<String, String> ruleLabels = Collections
			.unmodifiableMap(new LinkedHashMap<>(configured.getPrometheusRuleLabels()));
		kubernetesLabels(PREFIX + "rules.prometheus-rule-labels", ruleLabels, "PrometheusRule");
		String applicationName = environment.getProperty("spring.application.name", namespace);
		return new ControllerObservabilitySettings.Rules(window, group, ruleLabels,
				Collections.unmodifiableMap(operations), Collections.unmodifiableMap(recordingRules),
				Collections.unmodifiableMap(alerts),
				ScrapeTargetFactory.create(properties.getScrape(), ruleLabels, environment, applicationName));
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

	private static OperationRuleSettings operationSettings(String property, String operation, String window,
			OperationRulesProperties rules) {
		if (!MetricNames.isSnakeCase(MetricNames.toSnakeCase(operation))) {
			throw new InvalidObservabilityPropertyException(PREFIX + property, operation,
					"an operation name must turn into a snake_case metric name part",
					"Key the rules by an operation name such as launch or apply-packing");
		}
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
			String severity = alertFields(property + ".error-ratio", error.getFor(), error.getSeverity());
			errorRatio = new OperationRuleSettings.ErrorRatio(error.getThreshold(), error.getFor(), severity);
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
			String severity = alertFields(property + ".latency", slow.getFor(), slow.getSeverity());
			latency = new OperationRuleSettings.Latency(slow.getQuantile(), slow.getThreshold().toMillis() / 1000.0,
					slow.getFor(), severity);
		}
		var inFlight = rules.getStuck();
		if (inFlight.isEnabled()) {
			String severity = alertFields(property + ".stuck", inFlight.getFor(), inFlight.getSeverity());
			stuck = new OperationRuleSettings.Stuck(inFlight.getFor(), severity);
		}
		return new OperationRuleSettings(window, errorRatio, latency, stuck);
	}

	/** Checks the duration and severity of a built-in alert; returns the severity. */
	private static String alertFields(String property, String forDuration, AlertSeverity severity) {
		if (!PromQl.isDuration(forDuration)) {
			throw new InvalidObservabilityPropertyException(PREFIX + property + ".for", forDuration,
					"'for' is a Prometheus duration", "Write it like 10m");
		}
		if (severity == null) {
			throw new InvalidObservabilityPropertyException(PREFIX + property + ".severity", "",
					"every alert needs a severity, which routes it", "Set severity to critical, warning or info");
		}
		return severity.toString();
	}

}
