package dev.controllerobservability.internal.settings;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Tags;

import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.operations.OperationDefinition;

/**
 * Every setting of the core, each passed through {@link SettingRules}: what the core
 * builder and the Spring Boot properties both produce, and what
 * {@link dev.controllerobservability.internal.wiring.ObservabilityParts} wires the parts
 * from.
 *
 * @param namespace snake_case prefix of every controller metric
 * @param commonTags tags of controller metrics only
 * @param durationBuckets default duration buckets, in seconds
 * @param meterPrefixes dotted prefixes of meters that belong to the controller
 * @param errorLogInterval least time between two recording-failure log lines
 * @param operationTags label keys of every operation metric
 * @param operationDefinitions per-operation settings by snake_case name, in order
 * @param maxOperations most distinct undeclared operations recorded
 * @param stability which metrics are visible, deprecated, hidden or disabled
 * @param disabledMetrics Prometheus names of metrics never registered
 * @param labelAllowList allowed label values by metric and label
 * @param maxLabelValues most distinct values per metric and label
 * @param maxLabelValueLength longest label value kept
 * @param maxSeriesPerMetric most label sets per metric
 * @param metrics the declared metrics
 * @param settingNames how messages name a setting: builder methods or properties
 */
public record CheckedSettings(String namespace, Tags commonTags, List<Double> durationBuckets,
		List<String> meterPrefixes, Duration errorLogInterval, List<String> operationTags,
		Map<String, OperationDefinition> operationDefinitions, int maxOperations, StabilityPolicy stability,
		List<String> disabledMetrics, Map<String, Map<String, Set<String>>> labelAllowList, int maxLabelValues,
		int maxLabelValueLength, int maxSeriesPerMetric, List<MetricDefinition> metrics, SettingNames settingNames) {

}
