package dev.controllerobservability.rules;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * KubeVirt's rule checks: alert names PascalCase with an allowed {@code severity} and a
 * {@code summary}, recording rules named {@code level:metric:operations} whose metric and
 * operations the expression really has, valid durations and sound PromQL.
 */
public final class RuleValidator {

	/** Severities an alert may carry. */
	public static final Set<String> SEVERITIES = Set.of("critical", "warning", "info");

	private static final Pattern PASCAL_CASE = Pattern.compile("[A-Z][a-zA-Z0-9]*");

	private static final Pattern RECORDING_NAME = Pattern
		.compile("([a-zA-Z_][a-zA-Z0-9_]*):([a-zA-Z_][a-zA-Z0-9_]*):([a-zA-Z0-9_]+)");

	private static final Pattern OPERATION = Pattern.compile("([a-z]+)(\\d+[smhdwy])?");

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
			throw new InvalidRuleException(name, "for", alert.forDuration(),
					"'for' is a Prometheus duration", "Write it like 5m or 1h");
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
						"the name's operations say '" + operation + "', but the expression does not apply "
								+ function + ((window != null) ? " over [" + window + "]" : ""),
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
