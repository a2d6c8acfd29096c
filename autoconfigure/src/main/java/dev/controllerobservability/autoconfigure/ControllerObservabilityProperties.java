package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.ControllerOperations;

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
	private final Operations operations = new Operations();

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
	 * Most distinct values per metric and label; values beyond become "unexpected".
	 */
	private int maxLabelValues = 200;

	/**
	 * Longest label value kept; longer values are truncated.
	 */
	private int maxLabelValueLength = 128;

	/**
	 * Most label sets per metric; new label sets beyond it are recorded into one overflow
	 * series whose labels are all "overflow".
	 */
	private int maxSeriesPerMetric = CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC;

	/**
	 * Declared metrics, keyed by Prometheus name without the namespace, such as
	 * nodes_launched_total.
	 */
	private Map<String, Metric> metrics = new LinkedHashMap<>();

	/**
	 * Linting of the exposed metrics at start-up.
	 */
	private final Lint lint = new Lint();

	/**
	 * Alerting rules, keyed by PascalCase alert name. Expressions may use ${namespace},
	 * ${operation.<name>.duration} and ${operation.<name>.in_flight}.
	 */
	private Map<String, Alert> alerts = new LinkedHashMap<>();

	/**
	 * Recording rules, keyed by level:metric:operations name (use brackets in
	 * configuration keys, such as "[provisioner:karpenter_nodes_total:rate5m]").
	 */
	private Map<String, Recording> recordingRules = new LinkedHashMap<>();

	/**
	 * The rule group and the built-in operation rules.
	 */
	private final Rules rules = new Rules();

	/**
	 * How Prometheus scrapes the controller, for the generated ServiceMonitor and
	 * PodMonitor.
	 */
	private final Scrape scrape = new Scrape();

	/**
	 * Kubernetes client, operator and leader election metrics under their standard
	 * (un-namespaced) names.
	 */
	private final Kubernetes kubernetes = new Kubernetes();

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

	public Operations getOperations() {
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

	public Map<String, Metric> getMetrics() {
		return this.metrics;
	}

	public Lint getLint() {
		return this.lint;
	}

	public Scrape getScrape() {
		return this.scrape;
	}

	public Map<String, Alert> getAlerts() {
		return this.alerts;
	}

	public void setAlerts(Map<String, Alert> alerts) {
		this.alerts = alerts;
	}

	public Map<String, Recording> getRecordingRules() {
		return this.recordingRules;
	}

	public void setRecordingRules(Map<String, Recording> recordingRules) {
		this.recordingRules = recordingRules;
	}

	public Rules getRules() {
		return this.rules;
	}

	public Kubernetes getKubernetes() {
		return this.kubernetes;
	}

	public void setMetrics(Map<String, Metric> metrics) {
		this.metrics = metrics;
	}

	/**
	 * Operation timing settings.
	 */
	public static class Operations {

		/**
		 * Where operation durations are recorded.
		 */
		public enum Backend {

			/**
			 * Micrometer timers: every registry, meter filter and distribution setting
			 * applies, and every operation has a {@code _max} gauge.
			 */
			MICROMETER,

			/**
			 * prometheus-metrics-core histograms with classic and native buckets,
			 * registered with the Prometheus registry.
			 */
			PROMETHEUS

		}

		/**
		 * Label keys every operation metric carries; a key not given on a call gets the
		 * value "none".
		 */
		private List<String> tags = new ArrayList<>(MetricConventions.DEFAULT_OPERATION_LABELS);

		/**
		 * Per-operation settings, keyed by operation name such as "bind" or
		 * "apply-packing".
		 */
		private Map<String, Definition> definitions = new LinkedHashMap<>();

		/**
		 * Whether to record operations straight into their meters when no tracing and no
		 * other observation handler bean would see them, skipping the observation (and
		 * its allocations). Turn off when handlers are added to the observation registry
		 * by hand rather than as beans.
		 */
		private boolean directRecording = true;

		/**
		 * Most distinct undeclared operations recorded; declared operations always are
		 * and do not count. Calls of further undeclared operations run unrecorded,
		 * counted as recording failures.
		 */
		private int maxOperations = ControllerOperations.DEFAULT_MAX_OPERATIONS;

		/**
		 * Where operation durations are recorded: "micrometer" timers, seen by every
		 * registry and meter filter, or "prometheus" histograms with classic and native
		 * buckets, registered straight with the Prometheus registry: cheaper to record,
		 * but seen by Prometheus only, without management.metrics.distribution.*, and
		 * with a _max gauge for BETA and STABLE operations only.
		 */
		private Backend backend = Backend.MICROMETER;

		public Backend getBackend() {
			return this.backend;
		}

		public void setBackend(Backend backend) {
			this.backend = backend;
		}

		public int getMaxOperations() {
			return this.maxOperations;
		}

		public void setMaxOperations(int maxOperations) {
			this.maxOperations = maxOperations;
		}

		public boolean isDirectRecording() {
			return this.directRecording;
		}

		public void setDirectRecording(boolean directRecording) {
			this.directRecording = directRecording;
		}

		public List<String> getTags() {
			return this.tags;
		}

		public void setTags(List<String> tags) {
			this.tags = tags;
		}

		public Map<String, Definition> getDefinitions() {
			return this.definitions;
		}

		public void setDefinitions(Map<String, Definition> definitions) {
			this.definitions = definitions;
		}

	}

	/**
	 * Settings of one operation.
	 */
	public static class Definition {

		/**
		 * Name part between the namespace and the operation, snake_case, such as
		 * "allocation_controller".
		 */
		private String subsystem;

		/**
		 * Help text of the operation's duration histogram.
		 */
		private String description;

		/**
		 * Bucket boundaries of this operation's duration histogram, in seconds, strictly
		 * increasing. Defaults to duration-buckets.
		 */
		private List<Double> buckets = new ArrayList<>();

		/**
		 * Stability level shown in the help text of the operation's metrics: INTERNAL,
		 * ALPHA, BETA or STABLE.
		 */
		private String stability;

		public String getSubsystem() {
			return this.subsystem;
		}

		public void setSubsystem(String subsystem) {
			this.subsystem = subsystem;
		}

		public String getDescription() {
			return this.description;
		}

		public void setDescription(String description) {
			this.description = description;
		}

		public List<Double> getBuckets() {
			return this.buckets;
		}

		public void setBuckets(List<Double> buckets) {
			this.buckets = buckets;
		}

		public String getStability() {
			return this.stability;
		}

		public void setStability(String stability) {
			this.stability = stability;
		}

	}

	/**
	 * One declared metric.
	 */
	public static class Metric {

		/**
		 * Metric type: counter, gauge, histogram, summary (prefer histogram) or info.
		 */
		private String type;

		/**
		 * Help text; the stability level and deprecation are prepended when exposed.
		 */
		private String help;

		/**
		 * Label keys every series carries.
		 */
		private List<String> labels = new ArrayList<>();

		/**
		 * Bucket boundaries of a histogram, strictly increasing. Defaults to
		 * duration-buckets.
		 */
		private List<Double> buckets = new ArrayList<>();

		/**
		 * Base unit the name ends with, such as seconds or bytes.
		 */
		private String unit;

		/**
		 * Stability level: INTERNAL, ALPHA, BETA or STABLE.
		 */
		private String stability = "ALPHA";

		/**
		 * Version that deprecated the metric, MAJOR.MINOR.PATCH.
		 */
		private String deprecatedVersion;

		/**
		 * Old name (without namespace) this metric replaces; it stays exposed as a
		 * deprecated alias for the stability level's deprecation window.
		 */
		private String replaces;

		/**
		 * Version that introduced this name in place of the replaced one.
		 */
		private String renamedIn;

		/**
		 * Known values per label; when every label's values are known, counters and
		 * histograms are present at 0 from start-up.
		 */
		private Map<String, List<String>> labelValues = new LinkedHashMap<>();

		public String getType() {
			return this.type;
		}

		public void setType(String type) {
			this.type = type;
		}

		public String getHelp() {
			return this.help;
		}

		public void setHelp(String help) {
			this.help = help;
		}

		public List<String> getLabels() {
			return this.labels;
		}

		public void setLabels(List<String> labels) {
			this.labels = labels;
		}

		public List<Double> getBuckets() {
			return this.buckets;
		}

		public void setBuckets(List<Double> buckets) {
			this.buckets = buckets;
		}

		public String getUnit() {
			return this.unit;
		}

		public void setUnit(String unit) {
			this.unit = unit;
		}

		public String getStability() {
			return this.stability;
		}

		public void setStability(String stability) {
			this.stability = stability;
		}

		public String getDeprecatedVersion() {
			return this.deprecatedVersion;
		}

		public void setDeprecatedVersion(String deprecatedVersion) {
			this.deprecatedVersion = deprecatedVersion;
		}

		public String getReplaces() {
			return this.replaces;
		}

		public void setReplaces(String replaces) {
			this.replaces = replaces;
		}

		public String getRenamedIn() {
			return this.renamedIn;
		}

		public void setRenamedIn(String renamedIn) {
			this.renamedIn = renamedIn;
		}

		public Map<String, List<String>> getLabelValues() {
			return this.labelValues;
		}

		public void setLabelValues(Map<String, List<String>> labelValues) {
			this.labelValues = labelValues;
		}

	}

	/**
	 * Kubernetes metrics under client-go's and controller-runtime's names.
	 */
	public static class Kubernetes {

		/**
		 * Whether to count fabric8 client calls as rest_client_*, record Java Operator
		 * SDK reconciliations as controller_runtime_* and workqueue_*, and expose
		 * leader_election_master_status, when those libraries are present.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Linting of the exposed metrics.
	 */
	/**
	 * How Prometheus scrapes the controller: the port, path and interval of the generated
	 * ServiceMonitor and PodMonitor.
	 */
	public static class Scrape {

		/**
		 * Name of the Service or container port that serves the scrape endpoint. Defaults
		 * to "http", or "management" when management.server.port is set.
		 */
		private String port;

		/**
		 * Scrape interval, a Prometheus duration.
		 */
		private String interval = "30s";

		/**
		 * Labels of the Service (ServiceMonitor) or pods (PodMonitor) to scrape. Defaults
		 * to app.kubernetes.io/name set to spring.application.name.
		 */
		private Map<String, String> selector = new LinkedHashMap<>();

		public String getPort() {
			return this.port;
		}

		public void setPort(String port) {
			this.port = port;
		}

		public String getInterval() {
			return this.interval;
		}

		public void setInterval(String interval) {
			this.interval = interval;
		}

		public Map<String, String> getSelector() {
			return this.selector;
		}

		public void setSelector(Map<String, String> selector) {
			this.selector = selector;
		}

	}

	public static class Lint {

		/**
		 * What to do with findings on controller metrics once the application is ready:
		 * off, warn (log them) or fail (stop with a failure analysis).
		 */
		private Mode mode = Mode.WARN;

		/**
		 * Label names that look unbounded (such as node_name) but are bounded in this
		 * controller.
		 */
		private List<String> allowedLabels = new ArrayList<>();

		/**
		 * Name prefixes of framework metrics besides the usual ones (jvm, process, http,
		 * ...); their findings are reported separately and never fail start-up.
		 */
		private List<String> frameworkPrefixes = new ArrayList<>();

		public Mode getMode() {
			return this.mode;
		}

		public void setMode(Mode mode) {
			this.mode = mode;
		}

		public List<String> getAllowedLabels() {
			return this.allowedLabels;
		}

		public void setAllowedLabels(List<String> allowedLabels) {
			this.allowedLabels = allowedLabels;
		}

		public List<String> getFrameworkPrefixes() {
			return this.frameworkPrefixes;
		}

		public void setFrameworkPrefixes(List<String> frameworkPrefixes) {
			this.frameworkPrefixes = frameworkPrefixes;
		}

		/**
		 * What start-up does with lint findings.
		 */
		public enum Mode {

			/** Do not lint. */
			OFF,

			/** Log findings on controller metrics as warnings. */
			WARN,

			/** Stop start-up when a controller metric has a finding. */
			FAIL

		}

	}

	/**
	 * One alerting rule.
	 */
	public static class Alert {

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
		private String severity;

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

		public String getSeverity() {
			return this.severity;
		}

		public void setSeverity(String severity) {
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

	/**
	 * One recording rule.
	 */
	public static class Recording {

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

	/**
	 * The rule group and the built-in operation rules.
	 */
	public static class Rules {

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
		private Map<String, OperationRules> operations = new LinkedHashMap<>();

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

		public Map<String, OperationRules> getOperations() {
			return this.operations;
		}

		public void setOperations(Map<String, OperationRules> operations) {
			this.operations = operations;
		}

	}

	/**
	 * The built-in rules of one operation.
	 */
	public static class OperationRules {

		/**
		 * Alert when the share of failed calls is too high.
		 */
		private final ErrorRatio errorRatio = new ErrorRatio();

		/**
		 * Alert when a latency quantile is too high.
		 */
		private final Latency latency = new Latency();

		/**
		 * Alert when calls stay in flight while none completes.
		 */
		private final Stuck stuck = new Stuck();

		public ErrorRatio getErrorRatio() {
			return this.errorRatio;
		}

		public Latency getLatency() {
			return this.latency;
		}

		public Stuck getStuck() {
			return this.stuck;
		}

	}

	/**
	 * The error-ratio alert of an operation.
	 */
	public static class ErrorRatio {

		/**
		 * Whether to generate the alert and its recording rules.
		 */
		private boolean enabled;

		/**
		 * Share of failed calls above which the alert fires, between 0 and 1.
		 */
		private double threshold = 0.05;

		/**
		 * How long the ratio must stay above the threshold.
		 */
		private String forDuration = "10m";

		/**
		 * Severity: critical, warning or info.
		 */
		private String severity = "warning";

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public double getThreshold() {
			return this.threshold;
		}

		public void setThreshold(double threshold) {
			this.threshold = threshold;
		}

		public String getFor() {
			return this.forDuration;
		}

		public void setFor(String forDuration) {
			this.forDuration = forDuration;
		}

		public String getSeverity() {
			return this.severity;
		}

		public void setSeverity(String severity) {
			this.severity = severity;
		}

	}

	/**
	 * The latency alert of an operation.
	 */
	public static class Latency {

		/**
		 * Whether to generate the alert and its recording rule.
		 */
		private boolean enabled;

		/**
		 * Latency quantile, between 0 and 1.
		 */
		private double quantile = 0.99;

		/**
		 * Latency above which the alert fires.
		 */
		private Duration threshold = Duration.ofSeconds(10);

		/**
		 * How long the latency must stay above the threshold.
		 */
		private String forDuration = "10m";

		/**
		 * Severity: critical, warning or info.
		 */
		private String severity = "warning";

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public double getQuantile() {
			return this.quantile;
		}

		public void setQuantile(double quantile) {
			this.quantile = quantile;
		}

		public Duration getThreshold() {
			return this.threshold;
		}

		public void setThreshold(Duration threshold) {
			this.threshold = threshold;
		}

		public String getFor() {
			return this.forDuration;
		}

		public void setFor(String forDuration) {
			this.forDuration = forDuration;
		}

		public String getSeverity() {
			return this.severity;
		}

		public void setSeverity(String severity) {
			this.severity = severity;
		}

	}

	/**
	 * The stuck-in-flight alert of an operation.
	 */
	public static class Stuck {

		/**
		 * Whether to generate the alert.
		 */
		private boolean enabled;

		/**
		 * How long calls may stay in flight while none completes.
		 */
		private String forDuration = "15m";

		/**
		 * Severity: critical, warning or info.
		 */
		private String severity = "warning";

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getFor() {
			return this.forDuration;
		}

		public void setFor(String forDuration) {
			this.forDuration = forDuration;
		}

		public String getSeverity() {
			return this.severity;
		}

		public void setSeverity(String severity) {
			this.severity = severity;
		}

	}

}
