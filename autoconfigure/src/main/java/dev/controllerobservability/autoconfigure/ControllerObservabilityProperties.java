package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.metrics.MetricConventions;

/**
 * Configuration of Controller Observability, under {@code controller.observability}.
 * Unknown properties under this prefix stop start-up, so a typo never goes unnoticed.
 */
@ConfigurationProperties(prefix = ControllerObservabilityProperties.PREFIX, ignoreUnknownFields = false)
public class ControllerObservabilityProperties {

	/** Prefix of every property of this starter. */
	public static final String PREFIX = "controller.observability";

	/**
	 * Whether to auto-configure controller observability.
	 */
	private boolean enabled = true;

	/**
	 * Prefix of every controller metric name, snake_case. Defaults to
	 * spring.application.name in snake_case, else "controller".
	 */
	private String namespace;

	/**
	 * Tags added to controller metrics only, never to JVM, process or HTTP meters.
	 */
	private Map<String, String> commonTags = new LinkedHashMap<>();

	/**
	 * Default histogram bucket boundaries of controller duration metrics, in seconds,
	 * strictly increasing. Defaults to controller-runtime's 40 reconcile buckets.
	 */
	private List<Double> durationBuckets = new ArrayList<>(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS);

	/**
	 * Dotted Micrometer name prefixes of meters registered without the namespace that
	 * belong to the controller; they get the namespace, common tags and buckets.
	 */
	private List<String> meterPrefixes = new ArrayList<>();

	/**
	 * Minimum time between two log lines about failed metric recording.
	 */
	private Duration errorLogInterval = Duration.ofMinutes(1);

	/**
	 * Operation timing.
	 */
	@NestedConfigurationProperty
	private final OperationsProperties operations = new OperationsProperties();

	/**
	 * The controller's own version, MAJOR.MINOR.PATCH, which decides when deprecated
	 * metrics are hidden. Defaults to the build-info version.
	 */
	private String version;

	/**
	 * Previous minor version (MAJOR.MINOR) whose visible metrics are shown again even if
	 * hidden in this version.
	 */
	private String showHiddenMetricsForVersion;

	/**
	 * Prometheus names of metrics never to register, such as karpenter_old_total. Wins
	 * over everything else.
	 */
	private List<String> disabledMetrics = new ArrayList<>();

	/**
	 * Allowed values by Prometheus metric name and label; other values become
	 * "unexpected".
	 */
	private Map<String, Map<String, List<String>>> labelAllowList = new LinkedHashMap<>();

	/**
	 * Most distinct values per metric and label, an operation's "error" label included;
	 * values beyond become "unexpected".
	 */
	private int maxLabelValues = 200;

	/**
	 * Longest label value kept; longer values are truncated.
	 */
	private int maxLabelValueLength = 128;

	/**
	 * Most label sets per metric, an operation histogram's "result" and "error" labels
	 * counted; new label sets beyond it are recorded into one overflow series whose
	 * labels are all "overflow".
	 */
	private int maxSeriesPerMetric = CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC;

	/**
	 * Declared metrics, keyed by Prometheus name without the namespace, such as
	 * nodes_launched_total.
	 */
	private Map<String, MetricProperties> metrics = new LinkedHashMap<>();

	/**
	 * Linting of the exposed metrics at start-up.
	 */
	@NestedConfigurationProperty
	private final LintProperties lint = new LintProperties();

	/**
	 * Alerting rules, keyed by PascalCase alert name. Expressions may use ${namespace},
	 * ${operation.<name>.duration} and ${operation.<name>.in_flight}.
	 */
	private Map<String, AlertProperties> alerts = new LinkedHashMap<>();

	/**
	 * Recording rules, keyed by level:metric:operations name (use brackets in
	 * configuration keys, such as "[provisioner:karpenter_nodes_total:rate5m]").
	 */
	private Map<String, RecordingRuleProperties> recordingRules = new LinkedHashMap<>();

	/**
	 * The rule group and the built-in operation rules.
	 */
	@NestedConfigurationProperty
	private final RulesProperties rules = new RulesProperties();

	/**
	 * How Prometheus scrapes the controller, for the generated ServiceMonitor and
	 * PodMonitor.
	 */
	@NestedConfigurationProperty
	private final ScrapeProperties scrape = new ScrapeProperties();

	/**
	 * Kubernetes client, operator and leader election metrics under their standard
	 * (un-namespaced) names.
	 */
	@NestedConfigurationProperty
	private final KubernetesProperties kubernetes = new KubernetesProperties();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public Map<String, String> getCommonTags() {
		return this.commonTags;
	}

	public void setCommonTags(Map<String, String> commonTags) {
		this.commonTags = commonTags;
	}

	public List<Double> getDurationBuckets() {
		return this.durationBuckets;
	}

	public void setDurationBuckets(List<Double> durationBuckets) {
		this.durationBuckets = durationBuckets;
	}

	public List<String> getMeterPrefixes() {
		return this.meterPrefixes;
	}

	public void setMeterPrefixes(List<String> meterPrefixes) {
		this.meterPrefixes = meterPrefixes;
	}

	public Duration getErrorLogInterval() {
		return this.errorLogInterval;
	}

	public void setErrorLogInterval(Duration errorLogInterval) {
		this.errorLogInterval = errorLogInterval;
	}

	public OperationsProperties getOperations() {
		return this.operations;
	}

	public String getVersion() {
		return this.version;
	}

	public void setVersion(String version) {
		this.version = version;
	}

	public String getShowHiddenMetricsForVersion() {
		return this.showHiddenMetricsForVersion;
	}

	public void setShowHiddenMetricsForVersion(String showHiddenMetricsForVersion) {
		this.showHiddenMetricsForVersion = showHiddenMetricsForVersion;
	}

	public List<String> getDisabledMetrics() {
		return this.disabledMetrics;
	}

	public void setDisabledMetrics(List<String> disabledMetrics) {
		this.disabledMetrics = disabledMetrics;
	}

	public Map<String, Map<String, List<String>>> getLabelAllowList() {
		return this.labelAllowList;
	}

	public void setLabelAllowList(Map<String, Map<String, List<String>>> labelAllowList) {
		this.labelAllowList = labelAllowList;
	}

	public int getMaxLabelValues() {
		return this.maxLabelValues;
	}

	public void setMaxLabelValues(int maxLabelValues) {
		this.maxLabelValues = maxLabelValues;
	}

	public int getMaxLabelValueLength() {
		return this.maxLabelValueLength;
	}

	public void setMaxLabelValueLength(int maxLabelValueLength) {
		this.maxLabelValueLength = maxLabelValueLength;
	}

	public int getMaxSeriesPerMetric() {
		return this.maxSeriesPerMetric;
	}

	public void setMaxSeriesPerMetric(int maxSeriesPerMetric) {
		this.maxSeriesPerMetric = maxSeriesPerMetric;
	}

	public Map<String, MetricProperties> getMetrics() {
		return this.metrics;
	}

	public LintProperties getLint() {
		return this.lint;
	}

	public ScrapeProperties getScrape() {
		return this.scrape;
	}

	public Map<String, AlertProperties> getAlerts() {
		return this.alerts;
	}

	public void setAlerts(Map<String, AlertProperties> alerts) {
		this.alerts = alerts;
	}

	public Map<String, RecordingRuleProperties> getRecordingRules() {
		return this.recordingRules;
	}

	public void setRecordingRules(Map<String, RecordingRuleProperties> recordingRules) {
		this.recordingRules = recordingRules;
	}

	public RulesProperties getRules() {
		return this.rules;
	}

	public KubernetesProperties getKubernetes() {
		return this.kubernetes;
	}

	public void setMetrics(Map<String, MetricProperties> metrics) {
		this.metrics = metrics;
	}

}
