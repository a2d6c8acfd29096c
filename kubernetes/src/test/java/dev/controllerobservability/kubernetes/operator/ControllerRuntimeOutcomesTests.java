package dev.controllerobservability.kubernetes.operator;

import java.time.Duration;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.test.ControllerExecutions;
import dev.controllerobservability.RecordingFailures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How a failed reconciliation ends, told by the hooks the SDK calls after it (in the
 * order its {@code EventProcessor} calls them, on the reconciling thread), decides
 * between a workqueue retry, a terminal error, and neither.
 */
class ControllerRuntimeOutcomesTests {

	private static final Map<String, Object> WIDGET = Map.of(Constants.CONTROLLER_NAME, "widget");

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final PrometheusRegistry prometheusRegistry = new PrometheusRegistry();

	private final ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(this.registry,
			this.prometheusRegistry, new RecordingFailures(new SimpleMeterRegistry(), "test", Duration.ofHours(1)));

	private final ConfigMap resource = new ConfigMapBuilder().withNewMetadata()
		.withName("a")
		.withNamespace("default")
		.endMetadata()
		.build();

	@Test
	void countsARetryTheSdkScheduledAfterAnError() {
		failedReconciliation();
		this.metrics.failedReconciliation(this.resource, new IllegalStateException(), WIDGET);
		this.metrics.reconciliationExecutionFinished(this.resource, WIDGET);
		assertOutcome(1, 0);
	}

	@Test
	void countsAnImmediateNewAttemptAfterAnErrorAsARetry() {
		failedReconciliation();
		// A newer event was waiting, so the SDK submits the resource again at once.
		this.metrics.reconcileCustomResource(this.resource, null, WIDGET);
		this.metrics.reconciliationExecutionFinished(this.resource, WIDGET);
		assertOutcome(1, 0);
	}

	@Test
	void countsAnErrorTheSdkFinishesWithoutRetryAsTerminal() {
		// updateErrorStatus answered withNoRetry(), or the controller has no retry.
		failedReconciliation();
		this.metrics.finishedReconciliation(this.resource, WIDGET);
		this.metrics.reconciliationExecutionFinished(this.resource, WIDGET);
		assertOutcome(0, 1);
	}

	@Test
	void countsNeitherWhenTheResourceWasDeletedDuringTheFailedReconciliation() {
		failedReconciliation();
		this.metrics.finishedReconciliation(this.resource, WIDGET);
		this.metrics.cleanupDoneFor(ResourceID.fromResource(this.resource), WIDGET);
		this.metrics.reconciliationExecutionFinished(this.resource, WIDGET);
		assertOutcome(0, 0);
	}

	@Test
	void countsNeitherWhenRetriesAreExhausted() {
		failedReconciliation();
		this.metrics.reconciliationExecutionFinished(this.resource, WIDGET);
		assertOutcome(0, 0);
	}

	@Test
	void observesTheQueueWaitOfARequeueSubmittedBeforeThePreviousRunFinished() {
		// The SDK submits an immediate requeue from the reconciling thread, before it
		// reports that thread's run finished.
		this.metrics.reconcileCustomResource(this.resource, null, WIDGET);
		this.metrics.reconciliationExecutionStarted(this.resource, WIDGET);
		this.metrics.reconcileCustomResource(this.resource, null, WIDGET);
		this.metrics.reconciliationExecutionFinished(this.resource, WIDGET);
		this.metrics.reconciliationExecutionStarted(this.resource, WIDGET);
		this.metrics.reconciliationExecutionFinished(this.resource, WIDGET);
		HistogramSnapshot queueDuration = (HistogramSnapshot) this.prometheusRegistry.scrape()
			.stream()
			.filter((snapshot) -> snapshot.getMetadata().getPrometheusName().equals("workqueue_queue_duration_seconds"))
			.findFirst()
			.orElseThrow();
		assertThat(queueDuration.getDataPoints()).singleElement()
			.satisfies((point) -> assertThat(point.getCount()).isEqualTo(2));
	}

	private void failedReconciliation() {
		this.metrics.reconcileCustomResource(this.resource, null, WIDGET);
		this.metrics.reconciliationExecutionStarted(this.resource, WIDGET);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.metrics
			.timeControllerExecution(ControllerExecutions.execution(null, new IllegalStateException("failure"))));
	}

	private void assertOutcome(double retries, double terminalErrors) {
		assertThat(this.registry.get("controller.runtime.reconcile.errors").counter().count()).isEqualTo(1.0);
		assertThat(this.registry.get("workqueue.retries").counter().count()).isEqualTo(retries);
		assertThat(this.registry.get("controller.runtime.terminal.reconcile.errors").counter().count())
			.isEqualTo(terminalErrors);
	}

}
