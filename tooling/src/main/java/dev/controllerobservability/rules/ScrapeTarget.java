package dev.controllerobservability.rules;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.internal.rules.ManifestYaml;
import dev.controllerobservability.internal.rules.RuleSettingRules;

/**
 * Where and how often Prometheus scrapes the controller, rendered as the Prometheus
 * Operator's {@code monitoring.coreos.com/v1} {@code ServiceMonitor} (through the
 * controller's Service) or {@code PodMonitor} (straight from its pods). Example:
 *
 * <pre>{@code
 * ScrapeTarget target = new ScrapeTarget("demo-controller", Map.of("app.kubernetes.io/name", "demo-controller"),
 *         Map.of("release", "prometheus"), "http", "/actuator/prometheus", "30s");
 * Files.writeString(Path.of("servicemonitor.yaml"), target.toServiceMonitor());
 * }</pre>
 * <p>
 * The constructor refuses, with an {@link InvalidSettingException} naming the argument,
 * the value, why and the fix, what the API server or Prometheus would reject: the same
 * rules the starter applies to {@code controller.observability.scrape.*}.
 *
 * @param name the resource name
 * @param selector labels of the Service (for a {@code ServiceMonitor}) or of the pods
 * (for a {@code PodMonitor}) to scrape
 * @param labels metadata labels, such as the ones the Prometheus Operator selects
 * monitors on
 * @param port name of the Service or container port that serves the metrics
 * @param path HTTP path of the scrape, such as {@code /actuator/prometheus}
 * @param interval scrape interval, a Prometheus duration such as {@code 30s}
 */
public record ScrapeTarget(String name, Map<String, String> selector, Map<String, String> labels, String port,
		String path, String interval) {

	/**
	 * Creates the target, checking what the API server would refuse.
	 * @throws InvalidSettingException for a port name that is no Kubernetes port name, an
	 * interval that is no Prometheus duration, or a selector or label that is no
	 * Kubernetes label
	 */
	public ScrapeTarget {
		RuleSettingRules.port(port);
		RuleSettingRules.interval(interval);
		selector = Map.copyOf(RuleSettingRules.selector(selector));
		labels = Map.copyOf(RuleSettingRules.monitorLabels(labels));
	}

	/**
	 * Renders a {@code ServiceMonitor} that scrapes the port of the Services matching the
	 * selector.
	 * @return the YAML manifest
	 */
	public String toServiceMonitor() {
		return manifest("ServiceMonitor", "endpoints");
	}

	/**
	 * Renders a {@code PodMonitor} that scrapes the port of the pods matching the
	 * selector.
	 * @return the YAML manifest
	 */
	public String toPodMonitor() {
		return manifest("PodMonitor", "podMetricsEndpoints");
	}

	private String manifest(String kind, String endpointsKey) {
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("name", this.name);
		if (!this.labels.isEmpty()) {
			metadata.put("labels", new TreeMap<>(this.labels));
		}
		Map<String, Object> endpoint = new LinkedHashMap<>();
		endpoint.put("port", this.port);
		endpoint.put("path", this.path);
		endpoint.put("interval", this.interval);
		Map<String, Object> spec = new LinkedHashMap<>();
		spec.put("selector", Map.of("matchLabels", new TreeMap<>(this.selector)));
		spec.put(endpointsKey, List.of(endpoint));
		Map<String, Object> manifest = new LinkedHashMap<>();
		manifest.put("apiVersion", "monitoring.coreos.com/v1");
		manifest.put("kind", kind);
		manifest.put("metadata", metadata);
		manifest.put("spec", spec);
		return ManifestYaml.dump(manifest);
	}

}
