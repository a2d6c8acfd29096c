package dev.controllerobservability.autoconfigure;

import java.util.Map;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

import dev.controllerobservability.rules.AlertSeverity;

/**
 * One alerting rule.
 *
 * @param expr PromQL condition.
 * @param forDuration How long the condition must hold before the alert fires, such as 5m;
 * the property is {@code for}.
 * @param severity Severity: critical, warning or info.
 * @param summary One-line summary annotation.
 * @param description Description annotation.
 * @param runbookUrl Runbook link annotation (runbook_url).
 * @param labels Extra labels.
 * @param annotations Extra annotations.
 */
public record AlertProperties(String expr, @Name("for") String forDuration, AlertSeverity severity, String summary,
		String description, String runbookUrl, @DefaultValue Map<String, String> labels,
		@DefaultValue Map<String, String> annotations) {

}
