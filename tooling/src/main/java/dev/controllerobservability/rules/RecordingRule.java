package dev.controllerobservability.rules;

import java.util.Map;

/**
 * A Prometheus recording rule, named {@code level:metric:operations}.
 *
 * @param name such as {@code provisioner:karpenter_nodes_launched_total:rate5m}
 * @param expr the PromQL expression
 * @param labels extra labels
 */
public record RecordingRule(String name, String expr, Map<String, String> labels) {

	public RecordingRule {
		labels = (labels != null) ? Map.copyOf(labels) : Map.of();
	}

}
