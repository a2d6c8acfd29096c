package dev.controllerobservability.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rule group and the built-in operation rules.
 */
public class RulesProperties {

	/**
	 * Rule group name. Defaults to the namespace followed by ".rules".
	 */
	private String group;

	/**
	 * Rate window of the built-in recording rules.
	 */
	private String window = "5m";

	/**
	 * Metadata labels of the rendered PrometheusRule, such as the ones the Prometheus
	 * Operator selects rules by.
	 */
	private Map<String, String> prometheusRuleLabels = new LinkedHashMap<>();

	/**
	 * Built-in rules per operation, keyed by operation name such as "launch".
	 */
	private Map<String, OperationRulesProperties> operations = new LinkedHashMap<>();

	public String getGroup() {
		return this.group;
	}

	public void setGroup(String group) {
		this.group = group;
	}

	public String getWindow() {
		return this.window;
	}

	public void setWindow(String window) {
		this.window = window;
	}

	public Map<String, String> getPrometheusRuleLabels() {
		return this.prometheusRuleLabels;
	}

	public void setPrometheusRuleLabels(Map<String, String> prometheusRuleLabels) {
		this.prometheusRuleLabels = prometheusRuleLabels;
	}

	public Map<String, OperationRulesProperties> getOperations() {
		return this.operations;
	}

	public void setOperations(Map<String, OperationRulesProperties> operations) {
		this.operations = operations;
	}

}
