package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.metrics.MetricConventions;

/**
 * Configuration of Controller Observability, under {@code controller.observability}.
 * Unknown properties under this prefix stop start-up, so a typo never goes unnoticed.
 *
 * @param enabled Whether to auto-configure controller observability.
 * @param namespace Prefix of every controller metric name, snake_case. Defaults to
 * spring.application.name in snake_case, else "controller".
 * @param commonTags Tags added to controller metrics only, never to JVM, process or HTTP
 * meters.
 * @param durationBuckets Default histogram bucket boundaries of controller duration
 * metrics, in seconds, strictly increasing. Defaults to controller-runtime's 40 reconcile
 * buckets.
 * @param meterPrefixes Dotted Micrometer name prefixes of meters registered without the
 * namespace that belong to the controller; they get the namespace, common tags and
 * buckets.
 * @param errorLogInterval Minimum time between two log lines about failed metric
 * recording.
 * @param operations Operation timing.
 * @param version The controller's own version, MAJOR.MINOR.PATCH, which decides when
 * deprecated metrics are hidden. Defaults to the build-info version.
 * @param showHiddenMetricsForVersion Previous minor version (MAJOR.MINOR) whose visible
 * metrics are shown again even if hidden in this version.
 * @param disabledMetrics Prometheus names of metrics never to register, such as
 * karpenter_old_total. Wins over everything else.
 * @param labelAllowList Allowed values by Prometheus metric name and label; other values
 * become "unexpected".
 * @param maxLabelValues Most distinct values per metric and label, an operation's "error"
 * label included; values beyond become "unexpected".
 * @param maxLabelValueLength Longest label value kept; longer values are truncated.
 * @param maxSeriesPerMetric Most label sets per metric, an operation histogram's "result"
 * and "error" labels counted; new label sets beyond it are recorded into one overflow
 * series whose labels are all "overflow".
 * @param metrics Declared metrics, keyed by Prometheus name without the namespace, such
 * as nodes_launched_total.
 * @param lint Linting of the exposed metrics at start-up.
 * @param alerts Alerting rules, keyed by PascalCase alert name. Expressions may use
 * ${namespace} and, for an operation such as bind, ${operation.bind.duration} and
 * ${operation.bind.in_flight}.
 * @param recordingRules Recording rules, keyed by level:metric:operations name (use
 * brackets in configuration keys, such as "[provisioner:karpenter_nodes_total:rate5m]").
 * @param rules The rule group and the built-in operation rules.
 * @param scrape How Prometheus scrapes the controller, for the generated ServiceMonitor
 * and PodMonitor.
 * @param kubernetes Kubernetes client, operator and leader election metrics under their
 * standard (un-namespaced) names.
 */
@ConfigurationProperties(prefix = ControllerObservabilityProperties.PREFIX, ignoreUnknownFields = false)
public record ControllerObservabilityProperties(@DefaultValue("true") boolean enabled, String namespace,
		@DefaultValue Map<String, String> commonTags, List<Double> durationBuckets,
		@DefaultValue List<String> meterPrefixes, @DefaultValue("1m") Duration errorLogInterval,
		@NestedConfigurationProperty @DefaultValue OperationsProperties operations, String version,
		String showHiddenMetricsForVersion, @DefaultValue List<String> disabledMetrics,
		@DefaultValue Map<String, Map<String, List<String>>> labelAllowList, @DefaultValue("200") int maxLabelValues,
		@DefaultValue("128") int maxLabelValueLength,
		@DefaultValue("" + CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC) int maxSeriesPerMetric,
		@DefaultValue Map<String, MetricProperties> metrics,
		@NestedConfigurationProperty @DefaultValue LintProperties lint,
		@DefaultValue Map<String, AlertProperties> alerts,
		@DefaultValue Map<String, RecordingRuleProperties> recordingRules,
		@NestedConfigurationProperty @DefaultValue RulesProperties rules,
		@NestedConfigurationProperty @DefaultValue ScrapeProperties scrape,
		@NestedConfigurationProperty @DefaultValue KubernetesProperties kubernetes) {

	/** Prefix of every property of this starter. */
	public static final String PREFIX = "controller.observability";

	public ControllerObservabilityProperties {
		// The default is a constant list, which an annotation cannot hold.
		durationBuckets = (durationBuckets != null) ? durationBuckets
				: List.copyOf(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS);
	}

}
