package dev.controllerobservability.rules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.controllerobservability.internal.rules.ManifestYaml;

/**
 * A controller's rule group: recording rules first, then alerts, ready to deploy as a
 * Prometheus rules file or a Prometheus Operator {@code PrometheusRule}. Example:
 *
 * <pre>{@code
 * Files.writeString(Path.of("rules.yaml"), ruleSet.toRulesFile());
 * Files.writeString(Path.of("prometheusrule.yaml"), ruleSet.toPrometheusRule("demo-controller", Map.of()));
 * }</pre>
 *
 * @param group the rule group name
 * @param recordingRules recording rules, in order
 * @param alerts alerts, in order
 */
public record RuleSet(String group, List<RecordingRule> recordingRules, List<AlertRule> alerts) {

	public RuleSet {
		recordingRules = List.copyOf(recordingRules);
		alerts = List.copyOf(alerts);
	}

	/**
	 * Renders a Prometheus rules file ({@code rule_files}).
	 * @return the YAML
	 */
	public String toRulesFile() {
		return ManifestYaml.dump(Map.of("groups", List.of(groupMap())));
	}

	/**
	 * Renders a {@code monitoring.coreos.com/v1} {@code PrometheusRule}.
	 * @param name the resource name
	 * @param labels metadata labels, such as the ones the Prometheus Operator selects on
	 * @return the YAML manifest
	 */
	public String toPrometheusRule(String name, Map<String, String> labels) {
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("name", name);
		if (!labels.isEmpty()) {
			metadata.put("labels", new LinkedHashMap<>(labels));
		}
		Map<String, Object> manifest = new LinkedHashMap<>();
		manifest.put("apiVersion", "monitoring.coreos.com/v1");
		manifest.put("kind", "PrometheusRule");
		manifest.put("metadata", metadata);
		manifest.put("spec", Map.of("groups", List.of(groupMap())));
		return ManifestYaml.dump(manifest);
	}

	private Map<String, Object> groupMap() {
		List<Object> rules = new ArrayList<>();
		for (RecordingRule rule : this.recordingRules) {
			Map<String, Object> map = new LinkedHashMap<>();
			map.put("record", rule.name());
			map.put("expr", rule.expr());
			if (!rule.labels().isEmpty()) {
				map.put("labels", new TreeMap<>(rule.labels()));
			}
			rules.add(map);
		}
		for (AlertRule alert : this.alerts) {
			Map<String, Object> map = new LinkedHashMap<>();
			map.put("alert", alert.name());
			map.put("expr", alert.expr());
			if (alert.forDuration() != null) {
				map.put("for", alert.forDuration());
			}
			Map<String, String> labels = new TreeMap<>(alert.labels());
			labels.put("severity", alert.severity());
			map.put("labels", labels);
			Map<String, String> annotations = new TreeMap<>(alert.annotations());
			annotations.put("summary", alert.summary());
			if (alert.description() != null) {
				annotations.put("description", alert.description());
			}
			if (alert.runbookUrl() != null) {
				annotations.put("runbook_url", alert.runbookUrl());
			}
			map.put("annotations", annotations);
			rules.add(map);
		}
		Map<String, Object> group = new LinkedHashMap<>();
		group.put("name", this.group);
		group.put("rules", rules);
		return group;
	}

}
