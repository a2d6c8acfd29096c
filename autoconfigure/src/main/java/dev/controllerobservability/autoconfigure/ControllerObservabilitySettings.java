package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.settings.CheckedSettings;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.settings.SettingRules;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.internal.rules.RuleSettings;
import dev.controllerobservability.autoconfigure.strictness.ConfigurationStrictness;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

/**
 * {@link ControllerObservabilityProperties} resolved and validated once at start-up: the
 * namespace derived, operation names normalized, every value checked. A bad value stops
 * start-up with an {@link InvalidObservabilityPropertyException} naming the property.
 *
 * @param namespace snake_case prefix of every controller metric
 * @param commonTags tags added to controller metrics only
 * @param durationBuckets default bucket boundaries in seconds
 * @param meterPrefixes dotted prefixes of meters that belong to the controller
 * @param errorLogInterval minimum time between two recording-failure log lines
 * @param operations what operation metrics carry and how they are recorded
 * @param stability which metrics are visible, deprecated, hidden or disabled
 * @param disabledMetrics Prometheus names of metrics never to register
 * @param labelAllowList allowed label values by Prometheus metric name and label
 * @param maxLabelValues most distinct values per metric and label
 * @param maxLabelValueLength longest label value kept
 * @param maxSeriesPerMetric most label sets per metric before its overflow series
 * @param catalog the metrics declared in configuration
 * @param rules the rules, alerts and scrape settings the generated artefacts come from
 * @param lint how the metrics linter judges the scrape
 */
public record ControllerObservabilitySettings(String namespace, Tags commonTags, List<Double> durationBuckets,
		List<String> meterPrefixes, Duration errorLogInterval, Operations operations, StabilityPolicy stability,
		List<String> disabledMetrics, Map<String, Map<String, Set<String>>> labelAllowList, int maxLabelValues,
		int maxLabelValueLength, int maxSeriesPerMetric, Catalog catalog, RuleSettings rules, Lint lint) {

	private static final String REGISTRY_TAGS = "management.metrics.tags";

	private static final Set<String> PROMETHEUS_RESERVED_LABELS = Set.of("le", "quantile");

	/**
	 * Resolves and validates the properties.
	 * @param properties the bound properties
	 * @param environment for {@code spring.application.name}
	 * @param buildVersion the build-info version, the default controller version, or
	 * {@code null}
	 * @return the settings
	 * @throws InvalidObservabilityPropertyException for the first invalid value
	 */
	static ControllerObservabilitySettings resolve(ControllerObservabilityProperties properties,
			Environment environment, String buildVersion) {
		ConfigurationStrictness.Checked checked = ConfigurationStrictness.check(environment);
		checkRegistryTags(environment);
		try {
			String namespace = namespace(properties.getNamespace(), environment.getProperty("spring.application.name"));
			Tags commonTags = SettingRules.commonTags(properties.getCommonTags());
			List<Double> buckets = SettingRules.durationBuckets(Setting.DURATION_BUCKETS,
					properties.getDurationBuckets());
			List<String> meterPrefixes = SettingRules.meterPrefixes(properties.getMeterPrefixes());
			Duration errorLogInterval = SettingRules.errorLogInterval(properties.getErrorLogInterval());
			Operations operations = operations(properties.getOperations(), checked);
			Map<String, Map<String, Set<String>>> allowList = SettingRules
				.labelAllowList(properties.getLabelAllowList());
			int maxLabelValues = SettingRules.atLeastOne(Setting.MAX_LABEL_VALUES, properties.getMaxLabelValues());
			int maxLabelValueLength = SettingRules.atLeastOne(Setting.MAX_LABEL_VALUE_LENGTH,
					properties.getMaxLabelValueLength());
			SettingRules.allowListFits(allowList, maxLabelValueLength);
			int maxSeriesPerMetric = SettingRules.atLeastOne(Setting.MAX_SERIES_PER_METRIC,
					properties.getMaxSeriesPerMetric());
			List<String> disabledMetrics = SettingRules.disabledMetrics(properties.getDisabledMetrics());
			StabilityPolicy stability = SettingRules.stability(version(properties.getVersion(), buildVersion),
					properties.getShowHiddenMetricsForVersion(), disabledMetrics);
			Catalog catalog = new Catalog(MetricCatalogFactory.definitions(namespace, properties.getMetrics()));
			RuleSettings rules = RulesResolver.resolve(properties, namespace, environment);
			LintProperties lint = properties.getLint();
			return new ControllerObservabilitySettings(namespace, commonTags, buckets, meterPrefixes, errorLogInterval,
					operations, stability, disabledMetrics, allowList, maxLabelValues, maxLabelValueLength,
					maxSeriesPerMetric, catalog, rules, new Lint(Set.copyOf(lint.getAllowedLabels()),
							List.copyOf(lint.getFrameworkPrefixes()), lint.getMode()));
		}
		catch (InvalidSettingException ex) {
			throw InvalidObservabilityPropertyException.of(ex);
		}
	}

	/**
	 * The settings the core wires its parts from.
	 * @return the core's settings, naming settings as properties
	 */
	CheckedSettings core() {
		return new CheckedSettings(this.namespace, this.commonTags, this.durationBuckets, this.meterPrefixes,
				this.errorLogInterval, this.operations.tags(), this.operations.definitions(),
				this.operations.maxOperations(), this.stability, this.disabledMetrics, this.labelAllowList,
				this.maxLabelValues, this.maxLabelValueLength, this.maxSeriesPerMetric, this.catalog.metrics(),
				SettingNames.PROPERTIES);
	}

	/**
	 * The operations section; a new {@code operations.*} property is read and checked
	 * here and becomes a component of {@link Operations}.
	 */
	private static Operations operations(OperationsProperties properties, ConfigurationStrictness.Checked checked) {
		List<String> tags = SettingRules.operationTags(properties.getTags());
		Map<String, OperationDefinitionProperties> configured = new LinkedHashMap<>(properties.getDefinitions());
		// bind: {} declares an operation too, though YAML leaves no property for it.
		checked.emptyOperationDefinitions()
			.forEach((name) -> configured.putIfAbsent(name, new OperationDefinitionProperties()));
		Map<String, OperationDefinition> definitions = new LinkedHashMap<>();
		configured
			.forEach((name, definition) -> definitions.put(name, new OperationDefinition(definition.getSubsystem(),
					definition.getDescription(), definition.getBuckets(), definition.getStability())));
		int maxOperations = SettingRules.atLeastOne(Setting.MAX_OPERATIONS, properties.getMaxOperations());
		return new Operations(tags, SettingRules.operationDefinitions(definitions.entrySet()), maxOperations,
				properties.isDirectRecording(), properties.getBackend());
	}

	/** The configured version, else the build's when it is one, else none. */
	private static @Nullable Version version(@Nullable String configured, @Nullable String buildVersion) {
		if (configured != null || buildVersion == null) {
			return SettingRules.version(configured);
		}
		try {
			return Version.parse(buildVersion);
		}
		catch (IllegalArgumentException ex) {
			// A build version such as "dev" says nothing about deprecation: hide nothing.
			return null;
		}
	}

	private static String namespace(@Nullable String configured, @Nullable String applicationName) {
		if (configured == null) {
			String derived = (applicationName != null) ? MetricNames.toSnakeCase(applicationName) : "";
			return SettingRules.isUsableNamespace(derived) ? derived : MetricConventions.DEFAULT_NAMESPACE;
		}
		return SettingRules.namespace(configured);
	}

	/**
	 * Refuses {@code management.metrics.tags} keys Prometheus reserves: Spring Boot puts
	 * these tags on every meter, and a histogram or summary with such a label breaks
	 * every scrape.
	 */
	private static void checkRegistryTags(Environment environment) {
		Map<String, String> tags = Binder.get(environment)
			.bind(REGISTRY_TAGS, Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
		for (Map.Entry<String, String> tag : tags.entrySet()) {
			if (PROMETHEUS_RESERVED_LABELS.contains(tag.getKey())) {
				throw new InvalidObservabilityPropertyException(REGISTRY_TAGS + "." + tag.getKey(), tag.getValue(),
						"Prometheus reserves '" + tag.getKey() + "' for "
								+ (tag.getKey().equals("le") ? "the bucket bounds of histograms"
										: "the quantiles of summaries")
								+ ", and Spring Boot puts this tag on every meter: every scrape of a histogram or "
								+ "summary would fail",
						"Choose another tag key");
			}
		}
	}

	/**
	 * What operation metrics carry and how they are recorded.
	 *
	 * @param tags label keys of every operation metric
	 * @param definitions per-operation settings keyed by snake_case operation name
	 * @param maxOperations most distinct operations recorded, besides declared ones
	 * @param directRecording whether operations record straight into their meters when
	 * only meter handlers would see their observations
	 * @param backend where durations are recorded
	 */
	public record Operations(List<String> tags, Map<String, OperationDefinition> definitions, int maxOperations,
			boolean directRecording, OperationsProperties.Backend backend) {

	}

	/**
	 * The metrics declared in configuration, each checked and checked against the others;
	 * checked against the {@code MetricDefinition} beans when the catalog is built.
	 *
	 * @param metrics the declared metrics, in configuration order
	 */
	public record Catalog(List<MetricDefinition> metrics) {

		public Catalog {
			metrics = List.copyOf(metrics);
		}

	}

	/**
	 * How the metrics linter judges the scrape.
	 *
	 * @param allowedLabels label names that look unbounded but are bounded in this
	 * controller
	 * @param frameworkPrefixes name prefixes of framework metrics besides the usual ones,
	 * whose findings never fail start-up
	 * @param mode what a finding does at start-up
	 */
	public record Lint(Set<String> allowedLabels, List<String> frameworkPrefixes, LintProperties.Mode mode) {

	}

}
