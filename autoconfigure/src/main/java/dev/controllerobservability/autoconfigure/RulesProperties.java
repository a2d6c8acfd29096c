package dev.controllerobservability.autoconfigure;

import java.util.Map;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The rule group and the built-in operation rules.
 *
 * @param group Rule group name. Defaults to the namespace followed by ".rules".
 * @param window Rate window of the built-in recording rules.
 * @param prometheusRuleLabels Metadata labels of the rendered PrometheusRule, such as the
 * ones the Prometheus Operator selects rules by.
 * @param operations Built-in rules per operation, keyed by operation name such as
 * "launch".
 */
public record RulesProperties(String group, @DefaultValue("5m") String window,
		@DefaultValue Map<String, String> prometheusRuleLabels,
		@DefaultValue Map<String, OperationRulesProperties> operations) {

}
