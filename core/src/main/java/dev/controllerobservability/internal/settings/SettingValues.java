package dev.controllerobservability.internal.settings;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.operations.OperationDefinition;

/**
 * Every setting of the core as given, before {@link SettingRules} checks it: what the
 * core builder holds and what the Spring Boot properties bind. {@link #check} is the one
 * place that turns them into {@link CheckedSettings}, so both paths refuse the same value
 * for the same reason, in the same order.
 *
 * @param namespace the namespace
 * @param commonTags tags of controller metrics only
 * @param durationBuckets default duration buckets, in seconds
 * @param meterPrefixes dotted prefixes of meters that belong to the controller
 * @param errorLogInterval least time between two recording-failure log lines
 * @param operationTags label keys of every operation metric
 * @param operationDefinitions per-operation settings by operation name, in order
 * @param maxOperations most distinct undeclared operations recorded
 * @param version the controller's version, or {@code null}
 * @param fallbackVersion the version used when none is given, such as the build's; left
 * out when it is no version (a build version such as {@code dev}), or {@code null}
 * @param showHiddenMetricsForVersion the minor version whose hidden metrics are shown, or
 * {@code null}
 * @param disabledMetrics exposed names of metrics never registered
 * @param labelAllowList allowed label values by exposed metric name and label
 * @param maxLabelValues most distinct values per metric and label
 * @param maxLabelValueLength longest label value kept
 * @param maxSeriesPerMetric most label sets per metric
 */
public record SettingValues(@Nullable String namespace, Map<String, @Nullable String> commonTags,
		@Nullable List<Double> durationBuckets, @Nullable List<@Nullable String> meterPrefixes,
		@Nullable Duration errorLogInterval, List<@Nullable String> operationTags,
		Collection<? extends Map.Entry<@Nullable String, @Nullable OperationDefinition>> operationDefinitions,
		int maxOperations, @Nullable String version, @Nullable String fallbackVersion,
		@Nullable String showHiddenMetricsForVersion, @Nullable List<@Nullable String> disabledMetrics,
		Map<@Nullable String, ? extends Map<@Nullable String, ? extends @Nullable Collection<@Nullable String>>> labelAllowList,
		int maxLabelValues, int maxLabelValueLength, int maxSeriesPerMetric) {

	/**
	 * Checks every setting, each on its own, and the allow-list against the longest value
	 * kept.
	 * @param metrics checks the declared metrics, given the checked namespace
	 * @param names how messages at run time name a setting
	 * @return the checked settings
	 * @throws dev.controllerobservability.InvalidSettingException for the first value
	 * that cannot be used
	 */
	public CheckedSettings check(Function<String, List<MetricDefinition>> metrics, SettingNames names) {
		String namespace = SettingRules.namespace(this.namespace);
		Tags commonTags = SettingRules.commonTags(this.commonTags);
		List<Double> buckets = SettingRules.durationBuckets(Setting.DURATION_BUCKETS, this.durationBuckets);
		List<String> meterPrefixes = SettingRules.meterPrefixes(this.meterPrefixes);
		Duration errorLogInterval = SettingRules.errorLogInterval(this.errorLogInterval);
		List<String> operationTags = SettingRules.operationTags(this.operationTags);
		Map<String, OperationDefinition> definitions = SettingRules.operationDefinitions(this.operationDefinitions);
		int maxOperations = SettingRules.atLeastOne(Setting.MAX_OPERATIONS, this.maxOperations);
		Map<String, Map<String, Set<String>>> allowList = SettingRules.labelAllowList(this.labelAllowList);
		int maxLabelValues = SettingRules.atLeastOne(Setting.MAX_LABEL_VALUES, this.maxLabelValues);
		int maxLabelValueLength = SettingRules.atLeastOne(Setting.MAX_LABEL_VALUE_LENGTH, this.maxLabelValueLength);
		SettingRules.allowListFits(allowList, maxLabelValueLength);
		int maxSeriesPerMetric = SettingRules.atLeastOne(Setting.MAX_SERIES_PER_METRIC, this.maxSeriesPerMetric);
		List<String> disabledMetrics = SettingRules.disabledMetrics(this.disabledMetrics);
		StabilityPolicy stability = SettingRules.stability(checkedVersion(), this.showHiddenMetricsForVersion,
				disabledMetrics);
		return new CheckedSettings(namespace, commonTags, buckets, meterPrefixes, errorLogInterval, operationTags,
				definitions, maxOperations, stability, disabledMetrics, allowList, maxLabelValues, maxLabelValueLength,
				maxSeriesPerMetric, metrics.apply(namespace), names);
	}

	/**
	 * The namespace derived from an application's name: its snake_case form when that may
	 * serve as a namespace, else {@code controller}.
	 * @param applicationName the name, or {@code null}
	 * @return the namespace
	 */
	public static String derivedNamespace(@Nullable String applicationName) {
		String derived = (applicationName != null) ? MetricNames.toSnakeCase(applicationName) : "";
		return SettingRules.isUsableNamespace(derived) ? derived : MetricConventions.DEFAULT_NAMESPACE;
	}

	/** The given version, else the fallback when it is one, else none. */
	private @Nullable Version checkedVersion() {
		if (this.version != null || this.fallbackVersion == null) {
			return SettingRules.version(this.version);
		}
		try {
			return Version.parse(this.fallbackVersion);
		}
		catch (IllegalArgumentException ex) {
			// A build version such as "dev" says nothing about deprecation: hide nothing.
			return null;
		}
	}

}
