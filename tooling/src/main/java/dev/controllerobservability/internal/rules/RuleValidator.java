package dev.controllerobservability.internal.rules;

import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.AlertSeverity;
import dev.controllerobservability.rules.InvalidRuleException;
import dev.controllerobservability.rules.RecordingRule;

/**
 * KubeVirt's rule checks: alert names PascalCase with an allowed {@code severity} and a
 * {@code summary}, recording rules named {@code level:metric:operations} whose metric and
 * operations the expression really has, valid durations and sound PromQL; label and
 * annotation keys that are label names, and templates Prometheus can parse.
 */
public final class RuleValidator {

	/** Severities an alert may carry, as {@link AlertSeverity} writes them. */
	public static final Set<String> SEVERITIES = Arrays.stream(AlertSeverity.values())
		.map(AlertSeverity::toString)
		.collect(Collectors.toUnmodifiableSet());

	private static final Pattern PASCAL_CASE = Pattern.compile("[A-Z][a-zA-Z0-9]*");

	private static final Pattern RECORDING_NAME = Pattern
		.compile("([a-zA-Z_][a-zA-Z0-9_]*):([a-zA-Z_][a-zA-Z0-9_]*):([a-zA-Z0-9_]+)");

	private static final Pattern OPERATION = Pattern.compile("([a-z]+)(\\d+[smhdwy])?");

	private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

	private RuleValidator() {
	}

	/**
	 * Checks an alert.
	 * @param alert the alert
	 * @throws InvalidRuleException for the first problem
	 */
	public static void validate(AlertRule alert) {
		String name = alert.name();
		if (!PASCAL_CASE.matcher(name).matches()) {
			throw new InvalidRuleException(name, null, name, "alert names are PascalCase",
					"Rename it to something like '" + pascalCase(name) + "'");
		}
		expression(name, alert.expr());
		if (alert.forDuration() != null && !PromQl.isDuration(alert.forDuration())) {
			throw new InvalidRuleException(name, "for", alert.forDuration(), "'for' is a Prometheus duration",
					"Write it like 5m or 1h");
		}
		if (alert.severity() == null || !SEVERITIES.contains(alert.severity())) {
			throw new InvalidRuleException(name, "severity", alert.severity(),
					(alert.severity() == null) ? "every alert needs a severity, which routes it"
							: "the severity is not one of " + SEVERITIES.stream().sorted().toList(),
					"Set severity to critical, warning or info");
		}
		if (alert.summary() == null || alert.summary().isBlank()) {
			throw new InvalidRuleException(name, "summary", alert.summary(),
					"every alert needs a summary, which is what a pager shows",
					"Write one line saying what is wrong, such as 'Launches of provisioner {{ $labels.provisioner }} fail'");
		}
		labelNames(name, "labels", alert.labels().keySet());
		labelNames(name, "annotations", alert.annotations().keySet());
		template(name, "summary", alert.summary());
		template(name, "description", alert.description());
		template(name, "runbook-url", alert.runbookUrl());
		alert.labels().forEach((key, value) -> template(name, "labels." + key, value));
		alert.annotations().forEach((key, value) -> template(name, "annotations." + key, value));
	}

	/**
	 * Checks the keys of a rule's labels or annotations: Prometheus label names, which
	 * {@code promtool check rules} requires of both.
	 * @param rule the rule name
	 * @param field {@code labels} or {@code annotations}
	 * @param keys the keys
	 * @throws InvalidRuleException for the first key that is not a label name
	 */
	public static void labelNames(String rule, String field, Iterable<String> keys) {
		for (String key : keys) {
			if (!isLabelName(key) || key.equals("__name__")) {
				throw new InvalidRuleException(rule, field + "." + key, key,
						"'" + key + "' is not a Prometheus label name (letters, digits and '_', not starting with a "
								+ "digit), so promtool and Prometheus reject the rule",
						"Rename it to something like '" + labelNameLike(key) + "'");
			}
		}
	}

	/**
	 * Whether a text is a Prometheus label name.
	 * @param name the candidate
	 * @return whether Prometheus accepts it as a label name
	 */
	public static boolean isLabelName(String name) {
		return name != null && LABEL_NAME.matcher(name).matches();
	}

	private static String labelNameLike(String key) {
		String name = key.replaceAll("[^a-zA-Z0-9_]+", "_").replaceAll("^_+|_+$", "");
		return isLabelName(name) ? name : "team";
	}

	private static void template(String rule, String field, String text) {
		String problem = AlertTemplates.syntaxProblem(text);
		if (problem != null) {
			throw new InvalidRuleException(rule, field, text,
					"the template is not valid: " + problem + ", so promtool and Prometheus reject the rule",
					"Fix the template, such as '{{ $labels.provisioner }}', or write '{{ \"{{\" }}' for literal braces");
		}
	}

	/**
	 * Checks a recording rule.
	 * @param rule the rule
	 * @throws InvalidRuleException for the first problem
	 */
	public static void validate(RecordingRule rule) {
		String name = rule.name();
		var matcher = RECORDING_NAME.matcher(name);
		if (!matcher.matches()) {
			throw new InvalidRuleException(name, null, name,
					"recording rule names have the form level:metric:operations" + (name.contains(":") ? ""
							: " (a map key with ':' needs brackets in Spring Boot configuration, such as "
									+ "\"[provisioner:karpenter_nodes_total:rate5m]\", or Spring drops the colons)"),
					"Name it like provisioner:karpenter_nodes_launched_total:rate5m");
		}
		expression(name, rule.expr());
		labelNames(name, "labels", rule.labels().keySet());
		String metric = matcher.group(2);
		if (!PromQl.metricNames(rule.expr()).contains(metric) && !rule.expr().contains(metric)) {
			throw new InvalidRuleException(name, "expr", rule.expr(),
					"the name says it is about " + metric + ", but the expression does not read it",
					"Name the rule after the metric it aggregates");
		}
		for (String operation : matcher.group(3).split("_")) {
			var parts = OPERATION.matcher(operation);
			if (!parts.matches()) {
				continue;
			}
			String function = parts.group(1);
			String window = parts.group(2);
			boolean hasFunction = rule.expr().matches("(?s).*\\b" + function + "\\s*(\\(|by|without).*");
			if (!hasFunction || (window != null && !rule.expr().contains("[" + window + "]"))) {
				throw new InvalidRuleException(name, "expr", rule.expr(),
						"the name's operations say '" + operation + "', but the expression does not apply " + function
								+ ((window != null) ? " over [" + window + "]" : ""),
						"Make the name's operations match the expression, such as rate5m for rate(...[5m])");
			}
		}
	}

	private static void expression(String rule, String expr) {
		String problem = PromQl.syntaxProblem(expr);
		if (problem != null) {
			throw new InvalidRuleException(rule, "expr", expr, "the PromQL is not valid: " + problem,
					"Fix the expression; promtool check rules shows the details");
		}
	}

	private static String pascalCase(String name) {
		StringBuilder result = new StringBuilder();
		for (String part : name.split("[^a-zA-Z0-9]+")) {
			if (!part.isEmpty()) {
				result.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
			}
		}
		return (result.length() > 0) ? result.toString() : "ControllerAlert";
	}

}
