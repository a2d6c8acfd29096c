package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.controllerobservability.metrics.MetricConventions;

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
	 * Declared metrics, keyed by Prometheus name without the namespace, such as
	 * nodes_launched_total.
	 */
	private Map<String, Metric> metrics = new LinkedHashMap<>();

	/**
	 * Linting of the exposed metrics at start-up.
	 */
	private final Lint lint = new Lint();

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

	public Map<String, Metric> getMetrics() {
		return this.metrics;
	}

	public Lint getLint() {
		return this.lint;
	}

	public void setMetrics(Map<String, Metric> metrics) {
		this.metrics = metrics;
	}

	/**
	 * Operation timing settings.
	 */
	public static class Operations {

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
	 * Linting of the exposed metrics.
	 */
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

}
