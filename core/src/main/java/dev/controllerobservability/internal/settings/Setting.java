package dev.controllerobservability.internal.settings;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.InvalidSettingException;

/**
 * One setting, named both ways a user sets it: as a property below
 * {@code controller.observability} and as a call on
 * {@link dev.controllerobservability.ControllerObservability.Builder}.
 *
 * @param property the property path below {@code controller.observability}, such as
 * {@code operations.tags[0]}
 * @param builderCall the builder call, such as
 * {@code ControllerObservability.Builder.operationTags(…) element 0}
 */
public record Setting(String property, String builderCall) {

	/** What every builder call starts with. */
	static final String BUILDER = "ControllerObservability.Builder.";

	/** The namespace every controller metric starts with. */
	public static final Setting NAMESPACE = of("namespace", "namespace");

	/** Tags on controller metrics only. */
	public static final Setting COMMON_TAGS = of("common-tags", "commonTags");

	/** The shared duration buckets. */
	public static final Setting DURATION_BUCKETS = of("duration-buckets", "durationBuckets");

	/** Prefixes of meters that belong to the controller. */
	public static final Setting METER_PREFIXES = of("meter-prefixes", "meterPrefixes");

	/** Least time between two recording-failure log lines. */
	public static final Setting ERROR_LOG_INTERVAL = of("error-log-interval", "errorLogInterval");

	/** Label keys of every operation metric. */
	public static final Setting OPERATION_TAGS = of("operations.tags", "operationTags");

	/** Per-operation settings. */
	public static final Setting OPERATION_DEFINITIONS = of("operations.definitions", "operation");

	/** Most distinct undeclared operations. */
	public static final Setting MAX_OPERATIONS = of("operations.max-operations", "maxOperations");

	/**
	 * Where operation durations are recorded: Micrometer timers or Prometheus histograms.
	 */
	public static final Setting OPERATIONS_BACKEND = of("operations.backend", "operationHistograms");

	/** The metric catalog. */
	public static final Setting METRICS = of("metrics", "metric");

	/** The controller's version. */
	public static final Setting VERSION = of("version", "version");

	/** The minor version whose hidden metrics are shown again. */
	public static final Setting SHOW_HIDDEN_METRICS_FOR_VERSION = of("show-hidden-metrics-for-version",
			"showHiddenMetricsForVersion");

	/** Exposed names of metrics never registered. */
	public static final Setting DISABLED_METRICS = of("disabled-metrics", "disabledMetrics");

	/** Allowed label values by metric and label. */
	public static final Setting LABEL_ALLOW_LIST = of("label-allow-list", "labelAllowList");

	/** Most distinct values per metric and label. */
	public static final Setting MAX_LABEL_VALUES = of("max-label-values", "maxLabelValues");

	/** Longest label value kept. */
	public static final Setting MAX_LABEL_VALUE_LENGTH = of("max-label-value-length", "maxLabelValueLength");

	/** Most label sets per metric. */
	public static final Setting MAX_SERIES_PER_METRIC = of("max-series-per-metric", "maxSeriesPerMetric");

	/**
	 * The largest scrape rendered: a scrape that would pass it is refused. Set on the
	 * shared scrape's own builder, not on {@code ControllerObservability.Builder}.
	 */
	public static final Setting SCRAPE_MAX_SIZE = new Setting("scrape.max-size", "SharedScrape.Builder.maxSize(…)");

	private static Setting of(String property, String method) {
		return new Setting(property, BUILDER + method + "(…)");
	}

	/**
	 * The settings of one operation.
	 * @param operation the operation name as given
	 * @return {@code operations.definitions.<operation>}, set by
	 * {@code operation("<operation>", …)}
	 */
	public static Setting operation(String operation) {
		return new Setting(OPERATION_DEFINITIONS.property + "." + operation,
				BUILDER + "operation(\"" + operation + "\", …)");
	}

	/**
	 * One declared metric.
	 * @param metric the metric name as declared
	 * @return {@code metrics.<metric>}, set by {@code metric(…)}
	 */
	public static Setting metric(String metric) {
		return new Setting(METRICS.property + "." + metric, BUILDER + "metric(MetricDefinition \"" + metric + "\")");
	}

	/**
	 * An element of a list setting.
	 * @param index the element's index
	 * @return the element
	 */
	public Setting element(int index) {
		return new Setting(this.property + "[" + index + "]", this.builderCall + " element " + index);
	}

	/**
	 * An entry of a map setting.
	 * @param key the entry's key
	 * @return the entry
	 */
	public Setting key(String key) {
		return new Setting(this.property + "." + key, this.builderCall + " key \"" + key + "\"");
	}

	/**
	 * A field of a setting made of several, such as an operation's {@code subsystem}.
	 * @param field the field as configuration spells it, such as
	 * {@code deprecated-version}
	 * @return the field
	 */
	public Setting field(String field) {
		return new Setting(this.property + "." + field, this.builderCall + " " + field);
	}

	/**
	 * The exception refusing a value of this setting.
	 * @param value the refused value
	 * @param reason why it cannot be used
	 * @param action what to change
	 * @return the exception
	 */
	public InvalidSettingException refuse(@Nullable Object value, String reason, String action) {
		return new InvalidSettingException(this.property, this.builderCall, value, reason, action, null);
	}

}
