package dev.controllerobservability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.ObservationRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.operations.OperationDurations;
import dev.controllerobservability.internal.operations.OperationMeterObservationHandler;
import dev.controllerobservability.internal.operations.PrometheusDurations;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.OperationDefinition;

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

	private final ControllerOperations operations;

	private final ControllerMetrics metrics;

	private final RecordingFailures failures;

	private final List<String> disabledMetrics;

	private ControllerObservability(ControllerOperations operations, ControllerMetrics metrics,
			RecordingFailures failures, List<String> disabledMetrics) {
		this.operations = operations;
		this.metrics = metrics;
		this.failures = failures;
		this.disabledMetrics = disabledMetrics;
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
	 * Exposed names of the metrics never registered.
	 * @return the disabled metrics
	 */
	public List<String> disabledMetrics() {
		return this.disabledMetrics;
	}

	/** Builds {@link ControllerObservability}. */
	public static final class Builder {

		private final MeterRegistry registry;

		private @Nullable ObservationRegistry observationRegistry;

		private String namespace = MetricConventions.DEFAULT_NAMESPACE;

		private List<String> operationTags = MetricConventions.DEFAULT_OPERATION_LABELS;

		private final Map<String, OperationDefinition> operationDefinitions = new LinkedHashMap<>();

		private final List<MetricDefinition> metrics = new ArrayList<>();

		private Tags commonTags = Tags.empty();

		private List<Double> durationBuckets = MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS;

		private List<String> disabledMetrics = List.of();

		private @Nullable String version;

		private @Nullable PrometheusRegistry operationHistograms;

		private Builder(MeterRegistry registry) {
			this.registry = Objects.requireNonNull(registry, "registry");
		}

		/**
		 * Sets the namespace every controller metric starts with.
		 * @param namespace snake_case namespace such as {@code karpenter}
		 * @return this builder
		 */
		public Builder namespace(String namespace) {
			this.namespace = Objects.requireNonNull(namespace, "namespace");
			return this;
		}

		/**
		 * Sets the label keys every operation metric carries.
		 * @param tags snake_case keys such as {@code provisioner}
		 * @return this builder
		 */
		public Builder operationTags(String... tags) {
			this.operationTags = List.of(tags);
			return this;
		}

		/**
		 * Adds per-operation settings.
		 * @param operation the operation name, such as {@code apply-packing}
		 * @param definition its settings
		 * @return this builder
		 */
		public Builder operation(String operation, OperationDefinition definition) {
			this.operationDefinitions.put(operation, definition);
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
		 * Sets tags added to controller metrics only.
		 * @param commonTags the tags, such as {@code cluster=dev}
		 * @return this builder
		 */
		public Builder commonTags(Tags commonTags) {
			this.commonTags = commonTags;
			return this;
		}

		/**
		 * Sets the default duration buckets, in seconds.
		 * @param durationBuckets strictly increasing boundaries
		 * @return this builder
		 */
		public Builder durationBuckets(List<Double> durationBuckets) {
			this.durationBuckets = List.copyOf(durationBuckets);
			return this;
		}

		/**
		 * Sets the exposed names of metrics never to register.
		 * @param disabledMetrics names such as {@code karpenter_old_total}
		 * @return this builder
		 */
		public Builder disabledMetrics(List<String> disabledMetrics) {
			this.disabledMetrics = List.copyOf(disabledMetrics);
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
		 * Times operations through an observation registry of your own, so that its other
		 * handlers (tracing, say) see them too.
		 * @param observationRegistry the registry
		 * @return this builder
		 */
		public Builder observationRegistry(ObservationRegistry observationRegistry) {
			this.observationRegistry = observationRegistry;
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
			this.operationHistograms = Objects.requireNonNull(registry, "registry");
			return this;
		}

		/**
		 * Adds the meter filter to the registry and builds operations and metrics.
		 * @return the observability
		 * @throws dev.controllerobservability.catalog.InvalidMetricDefinitionException if
		 * a declared metric is invalid
		 */
		public ControllerObservability build() {
			ClaimedFamilies claimed = new ClaimedFamilies();
			ControllerMeterFilter.Builder filter = ControllerMeterFilter.builder(this.namespace)
				.commonTags(this.commonTags)
				.durationBuckets(this.durationBuckets)
				.disabledMetrics(this.disabledMetrics);
			if (this.operationHistograms != null) {
				filter.claimedFamilies(claimed);
			}
			this.registry.config().meterFilter(filter.build());
			RecordingFailures failures = new RecordingFailures(this.registry, this.namespace, Duration.ofMinutes(1));
			claimed.reportTo(failures);
			CardinalityLimiter limiter = CardinalityLimiter.builder(this.registry, this.namespace).build();
			OperationDurations durations = (this.operationHistograms != null)
					? new PrometheusDurations(this.operationHistograms, this.registry.config().clock(), this.commonTags,
							this.durationBuckets, this.disabledMetrics, claimed)
					: OperationDurations.micrometer(this.registry);
			OperationMeterObservationHandler handler = new OperationMeterObservationHandler(this.registry, durations,
					failures, limiter);
			ObservationRegistry observations = this.observationRegistry;
			boolean direct = observations == null;
			if (observations == null) {
				observations = ObservationRegistry.create();
			}
			observations.observationConfig().observationHandler(handler);
			ControllerOperations.Builder operations = ControllerOperations.builder(observations, failures)
				.namespace(this.namespace)
				.labelKeys(this.operationTags)
				.cardinalityLimiter(limiter)
				.durations(durations);
			this.operationDefinitions.forEach(operations::definition);
			if (direct) {
				operations.directRecording(handler.seriesCache(), List.of());
			}
			StabilityPolicy stability = new StabilityPolicy((this.version != null) ? Version.parse(this.version) : null,
					null, Set.copyOf(this.disabledMetrics));
			ControllerMetrics metrics = new ControllerMetrics(this.registry,
					MetricCatalog.of(this.namespace, this.metrics), stability, limiter, failures, this.durationBuckets);
			return new ControllerObservability(operations.build(), metrics, failures, this.disabledMetrics);
		}

	}

}
