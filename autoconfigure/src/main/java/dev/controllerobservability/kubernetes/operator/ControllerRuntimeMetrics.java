package dev.controllerobservability.kubernetes.operator;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.BaseControl;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;

import dev.controllerobservability.metrics.RecordingFailures;

/**
 * A Java Operator SDK {@link Metrics} that emits controller-runtime's metric names and
 * semantics, so that dashboards and alerts written for Go controllers work unchanged.
 * Register it on the operator:
 * <pre>{@code
 * Operator operator = new Operator((overrider) -> overrider.withMetrics(controllerRuntimeMetrics));
 * }</pre>
 * Per controller (label {@code controller}, the JOSDK controller name):
 * <ul>
 * <li>{@code controller_runtime_reconcile_total{result=success|error|requeue|requeue_after}},
 * every result pre-set to 0 when the controller registers. A reconcile (or cleanup) that
 * asks to be rescheduled after a delay is {@code requeue_after}, after no delay
 * {@code requeue};</li>
 * <li>{@code controller_runtime_reconcile_errors_total}, and
 * {@code controller_runtime_terminal_reconcile_errors_total} for errors after which the
 * SDK will not retry (retries exhausted or none configured);</li>
 * <li>{@code controller_runtime_reconcile_time_seconds} with the 40 controller-runtime
 * buckets, {@code controller_runtime_active_workers} and
 * {@code controller_runtime_max_concurrent_reconciles} (the operator's reconciliation
 * thread pool, which the SDK shares between controllers);</li>
 * <li>{@code workqueue_*{name,controller}}, derived from the SDK's event processing: an
 * "add" is an event for a resource with no event already waiting, the depth is the number
 * of resources waiting for a reconciliation, the queue duration runs from the first
 * waiting event to the start of the reconciliation, the work duration over the
 * reconciliation, and a retry is a retry the SDK scheduled after an error.</li>
 * </ul>
 * Recording never fails a reconciliation: a failure is counted in
 * {@code <namespace>_observability_errors_total} and logged.
 */
public final class ControllerRuntimeMetrics implements Metrics {

	private final MeterRegistry registry;

	private final RecordingFailures failures;

	private final LongSupplier nanoTime;

	private final Map<String, ControllerRuntimeMeters> controllers = new ConcurrentHashMap<>();

	/**
	 * Creates the metrics.
	 * @param registry where the meters are registered
	 * @param failures where recording failures go
	 */
	public ControllerRuntimeMetrics(MeterRegistry registry, RecordingFailures failures) {
		this(registry, failures, System::nanoTime);
	}

	ControllerRuntimeMetrics(MeterRegistry registry, RecordingFailures failures, LongSupplier nanoTime) {
		this.registry = registry;
		this.failures = failures;
		this.nanoTime = nanoTime;
	}

	@Override
	public void controllerRegistered(Controller<? extends HasMetadata> controller) {
		try {
			var configuration = controller.getConfiguration();
			meters(configuration.getName())
				.maxConcurrentReconciles(configuration.getConfigurationService().concurrentReconciliationThreads());
		}
		catch (RuntimeException ex) {
			this.failures.record("register a controller's metrics", ex);
		}
	}

	@Override
	public void receivedEvent(Event event, Map<String, Object> metadata) {
		run("count a workqueue add", metadata,
				(meters) -> meters.added(event.getRelatedCustomResourceID(), this.nanoTime.getAsLong()));
	}

	@Override
	public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
		run("take a resource off the workqueue", metadata, (meters) -> meters.submitted(ResourceID.fromResource(resource)));
	}

	@Override
	public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
		run("count a workqueue retry", metadata, ControllerRuntimeMeters::retryScheduled);
	}

	@Override
	public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
		run("start timing work", metadata,
				(meters) -> meters.started(ResourceID.fromResource(resource), this.nanoTime.getAsLong()));
	}

	@Override
	public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
		run("finish timing work", metadata,
				(meters) -> meters.finished(ResourceID.fromResource(resource), this.nanoTime.getAsLong()));
	}

	@Override
	public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
		run("forget a deleted resource", metadata, (meters) -> meters.forget(resourceID));
	}

	@Override
	public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
		long start = this.nanoTime.getAsLong();
		T result;
		try {
			result = execution.execute();
		}
		catch (Exception ex) {
			record(execution, start, null, ex);
			throw ex;
		}
		record(execution, start, result, null);
		return result;
	}

	private <T> void record(ControllerExecution<T> execution, long start, T result, Exception error) {
		try {
			long nanos = this.nanoTime.getAsLong() - start;
			ControllerRuntimeMeters meters = meters(execution.controllerName());
			if (error != null) {
				meters.failed(nanos);
			}
			else {
				meters.succeeded(nanos, result(result));
			}
		}
		catch (RuntimeException ex) {
			this.failures.record("record a reconciliation", ex);
		}
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
				(name) -> new ControllerRuntimeMeters(this.registry, name, this.nanoTime));
	}

	/** controller-runtime's {@code result} label values. */
	enum ReconcileResult {

		SUCCESS("success"), ERROR("error"), REQUEUE("requeue"), REQUEUE_AFTER("requeue_after");

		private final String label;

		ReconcileResult(String label) {
			this.label = label;
		}

		String label() {
			return this.label;
		}

	}

}
