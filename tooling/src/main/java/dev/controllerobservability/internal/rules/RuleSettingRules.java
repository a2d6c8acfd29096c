package dev.controllerobservability.internal.rules;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.rules.AlertSeverity;

/**
 * The rules every setting of the rules, the built-in operation rules and the scrape
 * target passes, whichever path set it: {@code RuleSet.Builder}, {@code ScrapeTarget} and
 * the Spring Boot properties call the same method for the same setting, so the same value
 * is refused for the same reason. Each method returns the value as it will be used, or
 * throws an {@link InvalidSettingException} naming the setting both ways.
 */
public final class RuleSettingRules {

	/** The rate window of the built-in recording rules. */
	public static final Setting WINDOW = new Setting("rules.window", "RuleSet.Builder.window(…)");

	/** The name of the rule group. */
	public static final Setting GROUP = new Setting("rules.group", "RuleSet.Builder.group(…)");

	private static final String RULE_LABELS = "rules.prometheus-rule-labels";

	private static final Pattern KUBERNETES_LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

	private static final Pattern KUBERNETES_LABEL_PREFIX = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	/**
	 * Kubernetes port names (IANA service names): what a ServiceMonitor's port refers to.
	 */
	private static final Pattern PORT_NAME = Pattern.compile("(?=.*[a-z])[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	private RuleSettingRules() {
	}

	/**
	 * Checks the rate window of the built-in recording rules.
	 * @param window the window, such as {@code 5m}
	 * @return the window
	 */
	public static String window(@Nullable String window) {
		if (!PromQl.isDuration(window)) {
			throw WINDOW.refuse(window, "the rate window is a Prometheus duration", "Write it like 5m");
		}
		return window;
	}

	/**
	 * Checks the name of the rule group.
	 * @param group the name
	 * @param namespace the controller's namespace, for the suggestion
	 * @return the name
	 */
	public static String group(@Nullable String group, String namespace) {
		if (group == null || group.isBlank()) {
			throw GROUP.refuse(group, "a rule group needs a name; promtool and Prometheus reject a group without one",
					"Set a name such as '" + namespace + ".rules', or leave it unset for that default");
		}
		return group;
	}

	/**
	 * Checks the metadata labels of a {@code PrometheusRule}.
	 * @param labels the labels
	 * @return the labels
	 */
	public static Map<String, String> prometheusRuleLabels(Map<String, String> labels) {
		return kubernetesLabels(RULE_LABELS, "RuleSet.toPrometheusRule(…) labels", labels, "PrometheusRule");
	}

	/**
	 * Checks the metadata labels of a {@code ServiceMonitor} or {@code PodMonitor}, which
	 * the starter takes from {@code rules.prometheus-rule-labels}.
	 * @param labels the labels
	 * @return the labels
	 */
	public static Map<String, String> monitorLabels(Map<String, String> labels) {
		return kubernetesLabels(RULE_LABELS, "new ScrapeTarget(…) labels", labels, "ServiceMonitor or PodMonitor");
	}

	/**
	 * Checks the selector of a {@code ServiceMonitor} or {@code PodMonitor}.
	 * @param selector the labels of the Service or pods to scrape
	 * @return the selector
	 */
	public static Map<String, String> selector(Map<String, String> selector) {
		return kubernetesLabels("scrape.selector", "new ScrapeTarget(…) selector", selector,
				"ServiceMonitor or PodMonitor");
	}

	/**
	 * Kubernetes label syntax, which the API server enforces.
	 */
	private static Map<String, String> kubernetesLabels(String property, String builderCall, Map<String, String> labels,
			String resource) {
		labels.forEach((key, value) -> {
			Setting setting = new Setting(property + "[" + key + "]", builderCall + " key \"" + key + "\"");
			int slash = key.lastIndexOf('/');
			String keyPrefix = (slash >= 0) ? key.substring(0, slash) : null;
			String name = key.substring(slash + 1);
			if ((keyPrefix != null
					&& (keyPrefix.length() > 253 || !KUBERNETES_LABEL_PREFIX.matcher(keyPrefix).matches()))
					|| name.length() > 63 || !KUBERNETES_LABEL_NAME.matcher(name).matches()) {
				throw setting.refuse(key,
						"'" + key + "' is not a Kubernetes label key (an optional DNS prefix and '/', then at most 63 "
								+ "letters, digits, '-', '_' or '.', starting and ending with a letter or digit), so "
								+ "the API server rejects the " + resource,
						"Use a key such as 'release' or '[app.kubernetes.io/part-of]' (brackets keep '.' and '/')");
			}
			if (value == null || value.length() > 63
					|| (!value.isEmpty() && !KUBERNETES_LABEL_NAME.matcher(value).matches())) {
				throw setting.refuse(value,
						"a Kubernetes label value has at most 63 letters, digits, '-', '_' or '.', starting and ending "
								+ "with a letter or digit, so the API server rejects the " + resource,
						"Use a value such as 'prometheus'");
			}
		});
		return labels;
	}

	/**
	 * Checks the name of the port a monitor scrapes.
	 * @param port the Service or container port name
	 * @return the port name
	 */
	public static String port(@Nullable String port) {
		if (port == null || port.length() > 15 || port.contains("--") || !PORT_NAME.matcher(port).matches()) {
			throw new Setting("scrape.port", "new ScrapeTarget(…) port").refuse(port,
					"a Kubernetes port name has at most 15 lowercase letters, digits or single '-', with at least one "
							+ "letter, so the API server rejects a ServiceMonitor or PodMonitor naming it",
					"Use the name of the port in your Service or container, such as 'http' or 'metrics'");
		}
		return port;
	}

	/**
	 * Checks the scrape interval.
	 * @param interval the interval, such as {@code 30s}
	 * @return the interval
	 */
	public static String interval(@Nullable String interval) {
		if (!PromQl.isDuration(interval)) {
			throw new Setting("scrape.interval", "new ScrapeTarget(…) interval").refuse(interval,
					"the scrape interval is a Prometheus duration", "Write it like 30s or 1m");
		}
		return interval;
	}

	/**
	 * One built-in rule of an operation, its operation name checked.
	 * @param operation the operation name as given
	 * @param rule the rule's name in configuration, such as {@code error-ratio}
	 * @param method the builder method that switches it on, such as
	 * {@code errorRatioAlert}
	 * @return {@code rules.operations.<operation>.<rule>}, set by
	 * {@code RuleSet.Builder.<method>("<operation>", …)}
	 */
	static Setting builtInRule(String operation, String rule, String method) {
		operationName(operation);
		return new Setting("rules.operations." + operation + "." + rule,
				"RuleSet.Builder." + method + "(\"" + operation + "\", …)");
	}

	/**
	 * Checks the name of an operation given built-in rules.
	 * @param operation the operation name as given
	 * @return the name
	 */
	public static String operationName(String operation) {
		if (!MetricNames.isSnakeCase(MetricNames.toSnakeCase(operation))) {
			throw new Setting("rules.operations." + operation,
					"RuleSet.Builder.errorRatioAlert/latencyAlert/stuckAlert(\"" + operation + "\", …)")
				.refuse(operation, "an operation name must turn into a snake_case metric name part",
						"Key the rules by an operation name such as launch or apply-packing");
		}
		return operation;
	}

	/**
	 * Checks the error ratio above which an alert fires.
	 * @param setting the error-ratio rule
	 * @param threshold the share of failed calls
	 * @return the threshold
	 */
	static double errorRatioThreshold(Setting setting, double threshold) {
		if (!(threshold > 0 && threshold <= 1)) {
			throw setting.field("threshold")
				.refuse(threshold, "the error ratio threshold is a share of calls",
						"Set a number above 0 and at most 1, such as 0.05");
		}
		return threshold;
	}

	/**
	 * Checks the quantile of a latency alert.
	 * @param setting the latency rule
	 * @param quantile the quantile
	 * @return the quantile
	 */
	static double quantile(Setting setting, double quantile) {
		if (!(quantile > 0 && quantile < 1)) {
			throw setting.field("quantile").refuse(quantile, "a quantile lies between 0 and 1", "Set it like 0.99");
		}
		return quantile;
	}

	/**
	 * Checks the latency above which an alert fires.
	 * @param setting the latency rule
	 * @param threshold the latency
	 * @return the latency
	 */
	static Duration latencyThreshold(Setting setting, @Nullable Duration threshold) {
		if (threshold == null || threshold.isNegative() || threshold.isZero()) {
			throw setting.field("threshold")
				.refuse(threshold, "the latency threshold must be positive", "Set it like 10s");
		}
		return threshold;
	}

	/**
	 * Checks how long a built-in alert's condition must hold, and its severity.
	 * @param setting the rule
	 * @param forDuration the duration, such as {@code 10m}
	 * @param severity the severity
	 */
	static void alertFields(Setting setting, @Nullable String forDuration, @Nullable AlertSeverity severity) {
		if (!PromQl.isDuration(forDuration)) {
			throw setting.field("for").refuse(forDuration, "'for' is a Prometheus duration", "Write it like 10m");
		}
		if (severity == null) {
			throw setting.field("severity")
				.refuse("", "every alert needs a severity, which routes it",
						"Set severity to critical, warning or info");
		}
	}

}
