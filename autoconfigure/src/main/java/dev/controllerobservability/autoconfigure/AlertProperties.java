package dev.controllerobservability.autoconfigure;

import dev.controllerobservability.rules.AlertSeverity;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One alerting rule.
 */
public class AlertProperties {

	/**
	 * PromQL condition.
	 */
	private String expr;

	/**
	 * How long the condition must hold before the alert fires, such as 5m.
	 */
	private String forDuration;

	/**
	 * Severity: critical, warning or info.
	 */
	private AlertSeverity severity;

	/**
	 * One-line summary annotation.
	 */
	private String summary;

	/**
	 * Description annotation.
	 */
	private String description;

	/**
	 * Runbook link annotation (runbook_url).
	 */
	private String runbookUrl;

	/**
	 * Extra labels.
	 */
	private Map<String, String> labels = new LinkedHashMap<>();

	/**
	 * Extra annotations.
	 */
	private Map<String, String> annotations = new LinkedHashMap<>();

	public String getExpr() {
		return this.expr;
	}

	public void setExpr(String expr) {
		this.expr = expr;
	}

	public String getFor() {
		return this.forDuration;
	}

	public void setFor(String forDuration) {
		this.forDuration = forDuration;
	}

	public AlertSeverity getSeverity() {
		return this.severity;
	}

	public void setSeverity(AlertSeverity severity) {
		this.severity = severity;
	}

	public String getSummary() {
		return this.summary;
	}

	public void setSummary(String summary) {
		this.summary = summary;
	}

	public String getDescription() {
		return this.description;
	}

	public void setDescription(String description) {
		this.description = description;
	}

	public String getRunbookUrl() {
		return this.runbookUrl;
	}

	public void setRunbookUrl(String runbookUrl) {
		this.runbookUrl = runbookUrl;
	}

	public Map<String, String> getLabels() {
		return this.labels;
	}

	public void setLabels(Map<String, String> labels) {
		this.labels = labels;
	}

	public Map<String, String> getAnnotations() {
		return this.annotations;
	}

	public void setAnnotations(Map<String, String> annotations) {
		this.annotations = annotations;
	}

}
