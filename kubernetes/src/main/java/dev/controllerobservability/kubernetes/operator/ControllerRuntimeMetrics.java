package dev.controllerobservability.kubernetes.operator;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.BaseControl;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.kubernetes.ControllerRuntimeHistograms;
import dev.controllerobservability.internal.kubernetes.ControllerRuntimeMeters;
import dev.controllerobservability.internal.kubernetes.PrimaryResourceObjects;
import dev.controllerobservability.internal.metrics.ResourceStateNames;
import dev.controllerobservability.internal.kubernetes.ResourceStateListener;
import dev.controllerobservability.internal.kubernetes.ReconcileResult;
import dev.controllerobservability.RecordingFailures;

/**
 * A Java Operator SDK {@link Metrics} that emits controller-runtime's metric names and
 * semantics, so that dashboards and alerts written for Go controllers work unchanged.
 * Register it on the operator:
 *
 * <pre>{@code
 * Operator operator = new Operator((overrider) -> overrider.withMetrics(controllerRuntimeMetrics));
 * }</pre> Per controller (label {@code controller}, the JOSDK controller name):
 * <ul>
 * <li>{@code controller_runtime_reconcile_total{result=success|error|requeue|requeue_after}},
 * every result pre-set to 0 when the controller registers. A reconcile (or cleanup) that
 * asks to be rescheduled after a delay is {@code requeue_after}, after no delay
 * {@code requeue};</li>
 * <li>{@code controller_runtime_reconcile_errors_total};
 * {@code controller_runtime_terminal_reconcile_errors_total} for errors the SDK does not
 * retry because the reconciler's {@code updateErrorStatus} asked for no retry (or the
 * controller has no retry); {@code controller_runtime_reconcile_panics_total} for
 * reconciles that ended with an {@link Error} or with one of the runtime exceptions Go
 * reports as a panic; {@code controller_runtime_reconcile_timeouts_total}, which stays 0
 * (the SDK has no reconciliation timeout);</li>
 * <li>{@code controller_runtime_reconcile_time_seconds} with the 40 controller-runtime
 * buckets and native buckets, {@code controller_runtime_active_workers} and
 * {@code controller_runtime_max_concurrent_reconciles} (the operator's reconciliation
 * thread pool, which the SDK shares between controllers);</li>
 * <li>{@code workqueue_*{name,controller}}, derived from the SDK's event processing: an
 * "add" is an event for a resource with no event already waiting, the depth (by
 * {@code priority}: {@code -100} for events from the initial list, before the controller
 * processes events, else {@code 0}) is the number of resources waiting for a
 * reconciliation, the queue duration runs from the first waiting event to the start of
 * the reconciliation, the work duration over the reconciliation, and a retry is every
 * delayed re-add client-go would make: after an error that is retried, and for every
 * {@code requeue} and {@code requeue_after}.</li>
 * </ul>
 * The three histograms are prometheus-metrics-core histograms in the application's
 * {@link PrometheusRegistry} (Micrometer has no native histograms); the rest are
 * Micrometer meters. Recording never fails a reconciliation: a failure is counted in
 * {@code <namespace>_observability_errors_total} and logged.
 * <p>
 * Built with the catalog's {@link ControllerMetrics} ({@link Builder#objects}), a deleted
 * primary resource (its cleanup, or the {@code DELETED} event of the controller's own
 * resource) is forgotten in every per-object metric; events of secondary resources forget
 * nothing. With {@link Builder#resourceState(boolean)} the {@link ResourceStateMetrics}
 * of each primary resource are recorded from the resources the SDK hands over: its
 * events, the start of each reconciliation, and the controller's cache after it.
 */
public final class ControllerRuntimeMetrics implements Metrics {

	/**
	 * Runtime exceptions that Go reports as a panic: nil dereference, bad cast, index and
	 * arithmetic faults.
	 */
	private static final List<Class<? extends RuntimeException>> PANICS = List.of(NullPointerException.class,
			ClassCastException.class, IndexOutOfBoundsException.class, ArithmeticException.class,
			ArrayStoreException.class, NegativeArraySizeException.class);

	private static final BooleanSupplier ALWAYS = () -> true;

	private final MeterRegistry registry;

	private final ControllerRuntimeHistograms histograms;

	private final RecordingFailures failures;

	private final LongSupplier nanoTime;

	private final Map<String, ControllerRuntimeMeters> controllers = new ConcurrentHashMap<>();

	/** Whether each registered controller processes events yet. */
	private final Map<String, BooleanSupplier> processing = new ConcurrentHashMap<>();

	/** The primary resources' per-object series, or {@code null} without a catalog. */
	private final @Nullable PrimaryResourceObjects objects;

	/**
	 * Creates the metrics.
	 * @param registry where the counters and gauges are registered
	 * @param prometheusRegistry where the histograms are registered: the registry the
	 * application's Prometheus endpoint scrapes
	 * @param failures where recording failures go
	 */
	public ControllerRuntimeMetrics(MeterRegistry registry, PrometheusRegistry prometheusRegistry,
			RecordingFailures failures) {
		this(registry, prometheusRegistry, Set.of(), failures);
	}

	/**
	 * Creates the metrics, leaving out disabled histograms.
	 * @param registry where the counters and gauges are registered
	 * @param prometheusRegistry where the histograms are registered: the registry the
	 * application's Prometheus endpoint scrapes
	 * @param disabledMetrics Prometheus names of histograms not to register (counters and
	 * gauges are disabled by the registry's meter filters)
	 * @param failures where recording failures go
	 */
	public ControllerRuntimeMetrics(MeterRegistry registry, PrometheusRegistry prometheusRegistry,
			Collection<String> disabledMetrics, RecordingFailures failures) {
		this(registry, prometheusRegistry, disabledMetrics, Map.of(), failures);
	}

	/**
	 * Creates the metrics, leaving out disabled histograms, with labels every histogram
	 * series carries.
	 * @param registry where the counters and gauges are registered
	 * @param prometheusRegistry where the histograms are registered: the registry the
	 * application's Prometheus endpoint scrapes
	 * @param disabledMetrics Prometheus names of histograms not to register (counters and
	 * gauges are disabled by the registry's meter filters)
	 * @param constantLabels labels for every histogram series: the common tags the
	 * registry's meter filters give the counters and gauges (such as Spring Boot's
	 * {@code management.metrics.tags}), which the histograms do not pass through
	 * @param failures where recording failures go
	 */
	public ControllerRuntimeMetrics(MeterRegistry registry, PrometheusRegistry prometheusRegistry,
			Collection<String> disabledMetrics, Map<String, String> constantLabels, RecordingFailures failures) {
		this(registry, new ControllerRuntimeHistograms(prometheusRegistry, disabledMetrics, constantLabels), failures,
				System::nanoTime, null);
	}

	ControllerRuntimeMetrics(MeterRegistry registry, ControllerRuntimeHistograms histograms, RecordingFailures failures,
			LongSupplier nanoTime) {
		this(registry, histograms, failures, nanoTime, null);
	}

	private ControllerRuntimeMetrics(MeterRegistry registry, ControllerRuntimeHistograms histograms,
			RecordingFailures failures, LongSupplier nanoTime, @Nullable PrimaryResourceObjects objects) {
		this.registry = registry;
		this.histograms = histograms;
		this.failures = failures;
		this.nanoTime = nanoTime;
		this.objects = objects;
	}

	/**
	 * Starts metrics that can also follow the primary resources' lifecycle in the
	 * catalog's per-object metrics.
	 * @param registry where the counters and gauges are registered
	 * @param prometheusRegistry where the histograms are registered: the registry the
	 * application's Prometheus endpoint scrapes
	 * @param failures where recording failures go
	 * @return the builder
	 */
	public static Builder builder(MeterRegistry registry, PrometheusRegistry prometheusRegistry,
			RecordingFailures failures) {
		return new Builder(registry, prometheusRegistry, failures);
	}

	@Override
	public void controllerRegistered(Controller<? extends HasMetadata> controller) {
		try {
			var configuration = controller.getConfiguration();
			var processor = controller.getEventProcessor();
			this.processing.put(configuration.getName(), processor::isRunning);
			if (this.objects != null && this.objects.recordsState()) {
				listen(controller);
			}
			meters(configuration.getName())
				.maxConcurrentReconciles(configuration.getConfigurationService().concurrentReconciliationThreads());
		}
		catch (RuntimeException ex) {
			this.failures.record("register a controller's metrics", ex);
		}
	}

	private <P extends HasMetadata> void listen(Controller<P> controller) {
		controller.getEventSourceManager()
			.registerEventSource(new ResourceStateListener<>(controller.getConfiguration().getResourceClass(),
					this.objects, this.failures));
	}

	@Override
	public void receivedEvent(Event event, Map<String, Object> metadata) {
		run("count a workqueue add", metadata,
				(meters) -> meters.added(event.getRelatedCustomResourceID(), this.nanoTime.getAsLong()));
		// Only the controller's own resource arrives as a ResourceEvent; a secondary
		// resource's event is a plain Event naming its primary.
		if (this.objects != null && event instanceof ResourceEvent resourceEvent) {
			try {
				HasMetadata resource = resourceEvent.getResource().orElse(null);
				if (resourceEvent.getAction() == ResourceAction.DELETED) {
					String kind = (resource != null) ? resource.getKind() : kind(metadata);
					forget(event.getRelatedCustomResourceID(), kind);
				}
				else if (resource != null) {
					this.objects.seen(resource);
				}
			}
			catch (RuntimeException ex) {
				this.failures.record("record a resource's per-object series", ex);
			}
		}
	}

	@Override
	public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
		run("take a resource off the workqueue", metadata,
				(meters) -> meters.submitted(ResourceID.fromResource(resource)));
		seen(resource);
	}

	@Override
	public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
		run("count a workqueue retry", metadata, ControllerRuntimeMeters::retryScheduled);
	}

	@Override
	public void finishedReconciliation(HasMetadata resource, Map<String, Object> metadata) {
		run("note a reconciliation finished without retry", metadata, ControllerRuntimeMeters::finishedReconciliation);
	}

	@Override
	public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
		run("start timing work", metadata,
				(meters) -> meters.started(ResourceID.fromResource(resource), this.nanoTime.getAsLong()));
		if (this.objects != null) {
			try {
				this.objects.reconciling(resource);
			}
			catch (RuntimeException ex) {
				this.failures.record("note a reconciliation of a resource", ex);
			}
		}
	}

	@Override
	public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
		run("finish timing work", metadata,
				(meters) -> meters.finished(ResourceID.fromResource(resource), this.nanoTime.getAsLong()));
		if (this.objects != null) {
			try {
				this.objects.reconciled(resource);
			}
			catch (RuntimeException ex) {
				this.failures.record("forget what a reconciliation of a deleted resource recorded", ex);
			}
		}
	}

	@Override
	public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
		run("forget a deleted resource", metadata, (meters) -> meters.forget(resourceID));
		if (this.objects != null) {
			try {
				forget(resourceID, kind(metadata));
			}
			catch (RuntimeException ex) {
				this.failures.record("forget a deleted resource's per-object series", ex);
			}
		}
	}

	private void forget(ResourceID resourceID, @Nullable String kind) {
		this.objects.deleted(
				PrimaryResourceObjects.objectRef(kind, resourceID.getNamespace().orElse(null), resourceID.getName()));
	}

	private static @Nullable String kind(@Nullable Map<String, Object> metadata) {
		Object gvk = (metadata != null) ? metadata.get(Constants.RESOURCE_GVK_KEY) : null;
		return (gvk instanceof GroupVersionKind groupVersionKind) ? groupVersionKind.getKind() : null;
	}

	private void seen(HasMetadata resource) {
		if (this.objects != null) {
			try {
				this.objects.seen(resource);
			}
			catch (RuntimeException ex) {
				this.failures.record("record a resource's state", ex);
			}
		}
	}

	@Override
	public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
		long start = this.nanoTime.getAsLong();
		T result;
		try {
			result = execution.execute();
		}
		catch (Exception | Error ex) {
			record(execution, start, null, ex);
			throw ex;
		}
		record(execution, start, result, null);
		return result;
	}

	private <T> void record(ControllerExecution<T> execution, long start, T result, Throwable error) {
		try {
			long nanos = this.nanoTime.getAsLong() - start;
			ControllerRuntimeMeters meters = meters(execution.controllerName());
			if (error != null) {
				meters.failed(nanos, isPanic(error));
			}
			else {
				meters.succeeded(nanos, result(result));
			}
		}
		catch (RuntimeException ex) {
			this.failures.record("record a reconciliation", ex);
		}
	}

	private static boolean isPanic(Throwable error) {
		return error instanceof Error || PANICS.stream().anyMatch((type) -> type.isInstance(error));
	}

	private static ReconcileResult result(Object result) {
		if (result instanceof BaseControl<?> control) {
			Optional<Long> delay = control.getScheduleDelay();
			if (delay.isPresent()) {
				return (delay.get() > 0) ? ReconcileResult.REQUEUE_AFTER : ReconcileResult.REQUEUE;
			}
		}
		return ReconcileResult.SUCCESS;
	}

	private void run(String action, Map<String, Object> metadata, Consumer<ControllerRuntimeMeters> step) {
		try {
			Object name = (metadata != null) ? metadata.get(Constants.CONTROLLER_NAME) : null;
			if (name != null) {
				step.accept(meters(name.toString()));
			}
		}
		catch (RuntimeException ex) {
			this.failures.record(action, ex);
		}
	}

	private ControllerRuntimeMeters meters(String controller) {
		return this.controllers.computeIfAbsent(controller,
				(name) -> new ControllerRuntimeMeters(this.registry, this.histograms.forController(name), name,
						this.nanoTime, () -> this.processing.getOrDefault(name, ALWAYS).getAsBoolean()));
	}

	/**
	 * Builds {@link ControllerRuntimeMetrics}. Example:
	 *
	 * <pre>{@code
	 * ControllerRuntimeMetrics metrics = ControllerRuntimeMetrics.builder(registry, prometheusRegistry, failures)
	 *     .objects(observability.metrics())
	 *     .build();
	 * }</pre>
	 */
	public static final class Builder {

		private final MeterRegistry registry;

		private final PrometheusRegistry prometheusRegistry;

		private final RecordingFailures failures;

		private Collection<String> disabledMetrics = Set.of();

		private Map<String, String> constantLabels = Map.of();

		private @Nullable ControllerMetrics objects;

		private boolean resourceState;

		private Builder(MeterRegistry registry, PrometheusRegistry prometheusRegistry, RecordingFailures failures) {
			this.registry = registry;
			this.prometheusRegistry = prometheusRegistry;
			this.failures = failures;
		}

		/**
		 * Leaves out histograms.
		 * @param disabledMetrics Prometheus names of histograms not to register
		 * @return this builder
		 */
		public Builder disabledMetrics(Collection<String> disabledMetrics) {
			this.disabledMetrics = Set.copyOf(disabledMetrics);
			return this;
		}

		/**
		 * Gives every histogram series labels, such as the registry's common tags.
		 * @param constantLabels the labels
		 * @return this builder
		 */
		public Builder constantLabels(Map<String, String> constantLabels) {
			this.constantLabels = Map.copyOf(constantLabels);
			return this;
		}

		/**
		 * Forgets each deleted primary resource in the catalog's per-object metrics:
		 * {@code metrics.forget(ObjectRef.of(kind, namespace, name))} on its cleanup and
		 * on its {@code DELETED} event.
		 * @param metrics the catalog's metrics
		 * @return this builder
		 */
		public Builder objects(ControllerMetrics metrics) {
			this.objects = metrics;
			return this;
		}

		/**
		 * Records the {@link ResourceStateMetrics} of each primary resource; they must be
		 * declared in the catalog given to {@link #objects}, else {@link #build()}
		 * refuses.
		 * @param resourceState whether to record them
		 * @return this builder
		 */
		public Builder resourceState(boolean resourceState) {
			this.resourceState = resourceState;
			return this;
		}

		/**
		 * Builds the metrics.
		 * @return the metrics
		 * @throws IllegalStateException if resource state is on without the catalog's
		 * metrics, or with a catalog that does not declare them
		 */
		public ControllerRuntimeMetrics build() {
			if (this.resourceState && this.objects == null) {
				throw new IllegalStateException("Resource state metrics are recorded into the catalog: give its "
						+ "ControllerMetrics with objects(observability.metrics()) and declare "
						+ "ResourceStateMetrics.definitions() in it");
			}
			if (this.resourceState && this.objects.objectLabels()
				.keySet()
				.stream()
				.noneMatch((family) -> family.endsWith("_" + ResourceStateNames.STATUS_CONDITION))) {
				throw new IllegalStateException("resourceState(true) records ResourceStateMetrics.definitions(), which "
						+ "the catalog given to objects(…) does not declare; declare each of them with "
						+ "ControllerObservability.Builder.metric(…)");
			}
			return new ControllerRuntimeMetrics(this.registry,
					new ControllerRuntimeHistograms(this.prometheusRegistry, this.disabledMetrics, this.constantLabels),
					this.failures, System::nanoTime,
					(this.objects != null) ? new PrimaryResourceObjects(this.objects, this.resourceState) : null);
		}

	}

}
