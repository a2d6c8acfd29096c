package dev.controllerobservability.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One recording rule.
 */
public class RecordingRuleProperties {

	/**
	 * PromQL expression.
	 */
	private String expr;

	/**
	 * Extra labels.
	 */
	private Map<String, String> labels = new LinkedHashMap<>();

	public String getExpr() {
		return this.expr;
	}

	public void setExpr(String expr) {
		this.expr = expr;
	}

	public Map<String, String> getLabels() {
		return this.labels;
	}

	public void setLabels(Map<String, String> labels) {
		this.labels = labels;
	}

}
