package dev.controllerobservability.rules;

import java.util.Map;

/**
 * A Prometheus alerting rule.
 *
 * @param name alert name, PascalCase, such as {@code KarpenterLaunchErrorsHigh}
 * @param expr the PromQL condition
 * @param forDuration how long the condition must hold, such as {@code 10m}, or
 * {@code null}
 * @param severity {@code critical}, {@code warning} or {@code info}
 * @param summary one-line summary annotation
 * @param description longer description annotation, or {@code null}
 * @param runbookUrl runbook link annotation, or {@code null}
 * @param labels extra labels
 * @param annotations extra annotations
 */
public record AlertRule(String name, String expr, String forDuration, String severity, String summary,
		String description, String runbookUrl, Map<String, String> labels, Map<String, String> annotations) {

	public AlertRule {
		labels = (labels != null) ? Map.copyOf(labels) : Map.of();
		annotations = (annotations != null) ? Map.copyOf(annotations) : Map.of();
	}

}
