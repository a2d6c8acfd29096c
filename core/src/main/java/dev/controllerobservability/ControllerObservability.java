package dev.controllerobservability;

import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.ObservationRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.internal.catalog.CatalogHistograms;
import dev.controllerobservability.internal.catalog.HistogramBuckets;
import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.operations.OperationDurations;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.internal.operations.PrometheusDurations;
import dev.controllerobservability.internal.settings.CheckedSettings;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.settings.SettingReferences;
import dev.controllerobservability.internal.settings.SettingRules;
import dev.controllerobservability.internal.settings.SettingValues;
import dev.controllerobservability.internal.wiring.ObservabilityParts;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.scrape.ScrapeErrors;
import dev.controllerobservability.scrape.SharedScrape;

/**
 * Controller Observability without Spring: what the Spring Boot auto-configuration wires,
 * built with {@code new} on a {@link MeterRegistry} of your own. Example, in a Java
 * Operator SDK operator's {@code main()}:
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * ControllerObservability observability = ControllerObservability.builder(registry)
 *     .namespace("karpenter")
 *     .operationTags("provisioner")
 *     .metric(MetricDefinition.counter("nodes_created_total").help("Nodes created.").labels("provisioner").build())
 *     .build();
 * observability.operations().observe("bind", Tags.of("provisioner", "gpu"), () -> binder.bind(pod));
 * observability.metrics().counter("nodes_created_total", "provisioner", "gpu").increment();
 * }</pre> The meter filter is added to the registry by {@link Builder#build()}, before
 * any controller meter is registered. Without an {@link ObservationRegistry} of your own,
 * operations record straight into their meters; with one (tracing, say), they go through
 * it.
 */
public final class ControllerObservability {

	private static final Duration DEFAULT_ERROR_LOG_INTERVAL = Duration.ofMinutes(1);

	private final ControllerOperations operations;

	private final ControllerMetrics metrics;

	private final RecordingFailures failures;

	private final List<String> disabledMetrics;

	private final ScrapeErrors scrapeErrors;

	private ControllerObservability(ControllerOperations operations, ControllerMetrics metrics,
			RecordingFailures failures, List<String> disabledMetrics, ScrapeErrors scrapeErrors) {
		this.operations = operations;
		this.metrics = metrics;
		this.failures = failures;
		this.disabledMetrics = disabledMetrics;
		this.scrapeErrors = scrapeErrors;
	}

	/**
	 * Starts a builder.
	 * @param registry the registry every controller metric goes to
	 * @return a builder with namespace {@code controller}, no operation tags and no
	 * declared metrics
	 */
	public static Builder builder(MeterRegistry registry) {
		return new Builder(registry);
	}

	/**
	 * Operation timing.
	 * @return the operations
	 */
	public ControllerOperations operations() {
		return this.operations;
	}

	/**
	 * The declared metrics, recorded by name.
	 * @return the metrics
	 */
	public ControllerMetrics metrics() {
		return this.metrics;
	}

	/**
	 * Where a failure to record goes (logged at a limited rate and counted in
	 * {@code <namespace>_observability_errors_total}); the Kubernetes integrations take
	 * it as it is.
	 * @return the recording failures
	 */
	public RecordingFailures failures() {
		return this.failures;
	}

	/**
	 * Where refused scrapes are counted
	 * ({@code <namespace>_observability_scrape_errors_total}), for
	 * {@link SharedScrape#builder}: {@code SharedScrape.builder(prometheusRegistry,
	 * observability.scrapeErrors()).build()}.
	 * @return the scrape errors
	 */
	public ScrapeErrors scrapeErrors() {
		return this.scrapeErrors;
	}

	/**
	 * Exposed names of the metrics never registered.
	 * @return the disabled metrics
	 */
	public List<String> disabledMetrics() {
		return this.disabledMetrics;
	}

	/**
	 * Builds {@link ControllerObservability}. Every setting is checked when
	 * {@link #build()} runs, by the same rules that check the Spring Boot properties: a
	 * value that cannot be used throws an {@link InvalidSettingException} naming the
	 * builder method, the value, why, and the fix.
	 */
	public static final class Builder {

		private final MeterRegistry registry;

		private @Nullable ObservationRegistry observationRegistry;

		private @Nullable String namespace = MetricConventions.DEFAULT_NAMESPACE;

		private @Nullable List<@Nullable String> operationTags = MetricConventions.DEFAULT_OPERATION_LABELS;

		private final List<Map.Entry<@Nullable String, @Nullable OperationDefinition>> operationDefinitions = new ArrayList<>();

		private final List<@Nullable MetricDefinition> metrics = new ArrayList<>();

		private @Nullable Map<String, @Nullable String> commonTags = new LinkedHashMap<>();

		private @Nullable List<Double> durationBuckets = MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS;

		private @Nullable List<@Nullable String> meterPrefixes = List.of();

		private @Nullable Duration errorLogInterval = DEFAULT_ERROR_LOG_INTERVAL;

		private @Nullable List<@Nullable String> disabledMetrics = List.of();

		private final Map<@Nullable String, Map<@Nullable String, @Nullable List<@Nullable String>>> labelAllowList = new LinkedHashMap<>();

		private int maxOperations = ControllerOperations.DEFAULT_MAX_OPERATIONS;

		private int maxLabelValues = CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES;

		private int maxLabelValueLength = CardinalityLimiter.DEFAULT_MAX_LABEL_VALUE_LENGTH;

		private int maxSeriesPerMetric = CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC;

		private @Nullable String version;

		private @Nullable String showHiddenMetricsForVersion;

		private @Nullable PrometheusRegistry operationHistograms;

		private Builder(MeterRegistry registry) {
			this.registry = Objects.requireNonNull(registry, "registry");
		}

		/**
		 * Sets the namespace every controller metric starts with: a snake_case Prometheus
		 * name that is not the prefix of framework metrics ({@code jvm}, {@code process},
		 * {@code http}, {@code workqueue}, ...). Default: {@code controller}.
		 * @param namespace snake_case namespace such as {@code karpenter}
		 * @return this builder
		 */
		public Builder namespace(String namespace) {
			this.namespace = namespace;
			return this;
		}

		/**
		 * Sets the label keys every operation metric carries, each a snake_case
		 * Prometheus label name, listed once, and none of the reserved {@code le},
		 * {@code quantile}, {@code result} and {@code error}. Default: none.
		 * @param tags snake_case keys such as {@code provisioner}
		 * @return this builder
		 */
		public Builder operationTags(String... tags) {
			this.operationTags = (tags != null) ? Arrays.asList(tags.clone()) : null;
			return this;
		}

		/**
		 * Adds per-operation settings. The name becomes a snake_case part of the metric's
		 * name ({@code apply-packing} becomes {@code apply_packing}); two names that
		 * become the same part are refused.
		 * @param operation the operation name, such as {@code apply-packing}
		 * @param definition its settings: a snake_case subsystem, a description that is
		 * not blank, duration buckets
		 * @return this builder
		 */
		public Builder operation(String operation, OperationDefinition definition) {
			this.operationDefinitions.add(new AbstractMap.SimpleEntry<>(operation, definition));
			return this;
		}

		/**
		 * Declares a metric of the catalog.
		 * @param definition the metric
		 * @return this builder
		 */
		public Builder metric(MetricDefinition definition) {
			this.metrics.add(definition);
			return this;
		}

		/**
		 * Sets tags added to controller metrics only: snake_case keys that are not
		 * reserved, values that are not empty.
		 * @param commonTags the tags, such as {@code cluster=dev}
		 * @return this builder
		 */
		public Builder commonTags(Tags commonTags) {
			if (commonTags == null) {
				this.commonTags = null;
				return this;
			}
			Map<String, @Nullable String> tags = new LinkedHashMap<>();
			commonTags.forEach((tag) -> tags.put(tag.getKey(), tag.getValue()));
			this.commonTags = tags;
			return this;
		}

		/**
		 * Sets the default duration buckets, in seconds. Default: controller-runtime's 40
		 * reconcile buckets, 0.005 to 60.
		 * @param durationBuckets strictly increasing boundaries, each between one
		 * nanosecond and about 292 years
		 * @return this builder
		 */
		public Builder durationBuckets(List<Double> durationBuckets) {
			this.durationBuckets = (durationBuckets != null) ? new ArrayList<>(durationBuckets) : null;
			return this;
		}

		/**
		 * Sets the dotted prefixes of Micrometer meters that belong to the controller:
		 * they get the namespace, the common tags and the duration buckets, as operation
		 * and catalog metrics do. A prefix of framework meters ({@code jvm},
		 * {@code http.server}, ...) is refused.
		 * @param meterPrefixes prefixes such as {@code cloud.api}
		 * @return this builder
		 */
		public Builder meterPrefixes(String... meterPrefixes) {
			this.meterPrefixes = (meterPrefixes != null) ? Arrays.asList(meterPrefixes.clone()) : null;
			return this;
		}

		/**
		 * Sets the least time between two log lines about failures to record; every
		 * failure is counted all the same. Default: one minute.
		 * @param errorLogInterval zero or positive
		 * @return this builder
		 */
		public Builder errorLogInterval(Duration errorLogInterval) {
			this.errorLogInterval = errorLogInterval;
			return this;
		}

		/**
		 * Sets the exposed names of metrics never to register.
		 * @param disabledMetrics names such as {@code karpenter_old_total}
		 * @return this builder
		 */
		public Builder disabledMetrics(List<String> disabledMetrics) {
			this.disabledMetrics = (disabledMetrics != null) ? new ArrayList<>(disabledMetrics) : null;
			return this;
		}

		/**
		 * Allows only the given values of one label of one metric: any other value is
		 * recorded as {@code unexpected}.
		 * @param metric the metric's exposed name, such as
		 * {@code karpenter_nodes_created_total}
		 * @param label the label, such as {@code zone}
		 * @param values at least one value, none empty
		 * @return this builder
		 */
		public Builder labelAllowList(String metric, String label, String... values) {
			this.labelAllowList.computeIfAbsent(metric, (name) -> new LinkedHashMap<>())
				.put(label, (values != null) ? Arrays.asList(values.clone()) : null);
			return this;
		}

		/**
		 * Sets the most distinct undeclared operations recorded. Declared operations are
		 * always recorded. Default: 100.
		 * @param maxOperations at least 1
		 * @return this builder
		 */
		public Builder maxOperations(int maxOperations) {
			this.maxOperations = maxOperations;
			return this;
		}

		/**
		 * Sets the most distinct values per metric and label; beyond it a value is
		 * recorded as {@code unexpected}. Default: 200.
		 * @param maxLabelValues at least 1
		 * @return this builder
		 */
		public Builder maxLabelValues(int maxLabelValues) {
			this.maxLabelValues = maxLabelValues;
			return this;
		}

		/**
		 * Sets the longest label value kept; longer values are truncated. Default: 128.
		 * @param maxLabelValueLength at least 1
		 * @return this builder
		 */
		public Builder maxLabelValueLength(int maxLabelValueLength) {
			this.maxLabelValueLength = maxLabelValueLength;
			return this;
		}

		/**
		 * Sets the most label sets per metric; beyond it new label sets are recorded into
		 * one {@code overflow} series. Default: 1000.
		 * @param maxSeriesPerMetric at least 1
		 * @return this builder
		 */
		public Builder maxSeriesPerMetric(int maxSeriesPerMetric) {
			this.maxSeriesPerMetric = maxSeriesPerMetric;
			return this;
		}

		/**
		 * Sets the controller's version, which decides when deprecated metrics are
		 * hidden.
		 * @param version MAJOR.MINOR.PATCH
		 * @return this builder
		 */
		public Builder version(String version) {
			this.version = version;
			return this;
		}

		/**
		 * Shows again the metrics hidden in the previous minor version, as Kubernetes'
		 * {@code --show-hidden-metrics-for-version} does. Needs {@link #version(String)}.
		 * @param minorVersion the previous minor version of the controller's, such as
		 * {@code 1.4} for version 1.5.0
		 * @return this builder
		 */
		public Builder showHiddenMetricsForVersion(String minorVersion) {
			this.showHiddenMetricsForVersion = minorVersion;
			return this;
		}

		/**
		 * Times operations through an observation registry of your own, so that its other
		 * handlers (tracing, say) see them too.
		 * @param observationRegistry the registry
		 * @return this builder
		 */
		public Builder observationRegistry(ObservationRegistry observationRegistry) {
			this.observationRegistry = Objects.requireNonNull(observationRegistry,
					"observationRegistry(null): pass your ObservationRegistry, or leave the call out to record "
							+ "operations straight into their meters");
			return this;
		}

		/**
		 * Records operation durations straight into Prometheus histograms, with classic
		 * and native buckets, instead of Micrometer timers: the cheapest recording there
		 * is, with no allocation per call. They are seen only by this Prometheus registry
		 * (no other Micrometer registry, meter filter or distribution setting applies to
		 * them), and only BETA and STABLE operations keep the {@code _max} gauge. Needs
		 * {@code io.prometheus:prometheus-metrics-core}.
		 * @param registry the Prometheus registry to register them with, such as
		 * {@code PrometheusMeterRegistry.getPrometheusRegistry()}
		 * @return this builder
		 */
		public Builder operationHistograms(PrometheusRegistry registry) {
			this.operationHistograms = Objects.requireNonNull(registry,
					"operationHistograms(null): pass the application's PrometheusRegistry, such as "
							+ "PrometheusMeterRegistry.getPrometheusRegistry(), or leave the call out to record "
							+ "operations as Micrometer timers");
			return this;
		}

		/**
		 * Checks every setting, each on its own and against the others (a catalog metric
		 * under an operation's name, a disabled or allow-listed name that no metric has),
		 * then adds the meter filter to the registry and builds operations and metrics.
		 * Nothing is added to the registry when a setting is refused.
		 * @return the observability
		 * @throws InvalidSettingException if a setting, or a declared metric, cannot be
		 * used
		 */
		public ControllerObservability build() {
			CheckedSettings settings = check();
			MetricCatalog catalog = SettingRules.catalog(settings.namespace(), settings.metrics());
			new SettingReferences(settings.namespace(), settings.operationTags(), settings.operationDefinitions(),
					List.of(), catalog, SettingNames.BUILDER)
				.check(settings.commonTags(), settings.disabledMetrics(), settings.labelAllowList());
			NamingPolicy naming = ObservabilityParts.naming(settings, Map.of());
			ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
			try {
				HistogramBuckets.bucketless(this.registry, CatalogHistograms.of(this.registry, naming, claimed) != null,
						catalog, settings.stability(), settings.durationBuckets(), SettingNames.BUILDER);
			}
			catch (InvalidMetricDefinitionException ex) {
				throw SettingRules.refused(ex);
			}
			claimed.seen(this.registry.getMeters());
			this.registry.config().meterFilter(new ControllerMeterFilter(naming, claimed));
			RecordingFailures failures = ObservabilityParts.failures(this.registry, settings);
			claimed.reportTo(failures);
			CardinalityLimiter limiter = ObservabilityParts.limiter(this.registry, settings);
			OperationDurations durations = (this.operationHistograms != null)
					? new PrometheusDurations(this.operationHistograms, this.registry.config().clock(), naming, claimed)
					: OperationDurations.micrometer(this.registry);
			OperationRecorder handler = new OperationRecorder(this.registry, durations, failures, limiter);
			// Without an observation registry of the user's, no handler but ours sees an
			// operation: it records straight into its series.
			boolean direct = this.observationRegistry == null;
			ObservationRegistry observations = direct ? ObservationRegistry.create() : this.observationRegistry;
			observations.observationConfig().observationHandler(handler);
			ControllerOperations operations = ObservabilityParts.operations(observations, failures, settings, limiter,
					handler, direct ? List.of() : null);
			ControllerMetrics metrics = ObservabilityParts.metrics(this.registry, catalog, settings, limiter, failures,
					naming, claimed);
			return new ControllerObservability(operations, metrics, failures, settings.disabledMetrics(),
					ObservabilityParts.scrapeErrors(this.registry, settings));
		}

		/** Every setting through the rules the Spring Boot properties pass too. */
		private CheckedSettings check() {
			if (this.operationTags == null) {
				throw Setting.OPERATION_TAGS.refuse(null, "the label keys must not be null",
						"Pass no argument for no keys, or keys such as \"provisioner\"");
			}
			if (this.commonTags == null) {
				throw Setting.COMMON_TAGS.refuse(null, "the tags must not be null", "Pass Tags.empty() for none");
			}
			return new SettingValues(this.namespace, this.commonTags, this.durationBuckets, this.meterPrefixes,
					this.errorLogInterval, this.operationTags, this.operationDefinitions, this.maxOperations,
					this.version, null, this.showHiddenMetricsForVersion, this.disabledMetrics, this.labelAllowList,
					this.maxLabelValues, this.maxLabelValueLength, this.maxSeriesPerMetric)
				.check((namespace) -> SettingRules.metrics(this.metrics), SettingNames.BUILDER);
		}

	}

}
