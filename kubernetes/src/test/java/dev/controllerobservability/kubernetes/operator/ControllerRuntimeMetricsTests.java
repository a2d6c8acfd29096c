package dev.controllerobservability.kubernetes.operator;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.kubernetes.ControllerRuntimeHistograms;
import dev.controllerobservability.internal.metrics.NativeHistogram;
import dev.controllerobservability.RecordingFailures;

import static dev.controllerobservability.internal.test.ControllerExecutions.execution;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Recording never changes what the operator sees, even when the registry fails; the
 * histograms have controller-runtime's classic and native buckets.
 */
class ControllerRuntimeMetricsTests {

	private final SimpleMeterRegistry failing = new SimpleMeterRegistry();

	private final SimpleMeterRegistry selfMetrics = new SimpleMeterRegistry();

	private final RecordingFailures failures = new RecordingFailures(this.selfMetrics, "karpenter",
			Duration.ofHours(1));

	ControllerRuntimeMetricsTests() {
		this.failing.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				throw new IllegalStateException("registry is broken");
			}
		});
	}

	@Test
	void returnsTheResultAndRethrowsTheErrorWhenTheRegistryFails() throws Exception {
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(this.failing, new PrometheusRegistry(),
				this.failures);
		assertThat(metrics.timeControllerExecution(execution("done", null))).isEqualTo("done");
		IllegalArgumentException reconcileError = new IllegalArgumentException("bad spec");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> metrics.timeControllerExecution(execution(null, reconcileError)))
			.isSameAs(reconcileError);
		metrics.receivedEvent(new Event(new ResourceID("a", "default")), Map.of(Constants.CONTROLLER_NAME, "widget"));
		assertThat(this.failures.count()).isEqualTo(3);
		assertThat(this.selfMetrics.get("karpenter.observability.errors").counter().count()).isEqualTo(3.0);
	}

	@Test
	void ignoresHooksWithoutAControllerName() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(registry, new PrometheusRegistry(),
				this.failures);
		metrics.receivedEvent(new Event(new ResourceID("a", "default")), Map.of());
		metrics.cleanupDoneFor(new ResourceID("a", "default"), null);
		assertThat(registry.getMeters()).isEmpty();
		assertThat(this.failures.count()).isZero();
	}

	@Test
	void recordsTheHistogramsWithClassicAndNativeBucketsAndNoMaximum() throws Exception {
		PrometheusRegistry prometheus = new PrometheusRegistry();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(registry, prometheus, this.failures);
		metrics.timeControllerExecution(execution("done", null));
		HistogramSnapshot.HistogramDataPointSnapshot series = reconcileTime(prometheus);
		assertThat(series.getLabels().get("controller")).isEqualTo("widget");
		assertThat(series.getCount()).isEqualTo(1);
		assertThat(series.getClassicBuckets().size()).isEqualTo(41);
		assertThat(series.getClassicBuckets().getUpperBound(0)).isEqualTo(0.005);
		assertThat(series.hasNativeHistogramData()).isTrue();
		// client_golang turns controller-runtime's bucket factor 1.1 into schema 3
		assertThat(series.getNativeSchema()).isEqualTo(3);
		assertThat(prometheus.scrape().stream().map((snapshot) -> snapshot.getMetadata().getPrometheusName()))
			.contains(ControllerRuntimeHistograms.QUEUE_DURATION, ControllerRuntimeHistograms.WORK_DURATION);
		assertThat(registry.find("controller.runtime.reconcile.time").meters()).isEmpty();
	}

	@Test
	void labelsTheHistogramsWithTheConstantLabelsTheirOwnLabelsWinning() throws Exception {
		PrometheusRegistry prometheus = new PrometheusRegistry();
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(new SimpleMeterRegistry(), prometheus, Set.of(),
				Map.of("region", "eu-test", "controller", "ignored"), this.failures);
		metrics.timeControllerExecution(execution("done", null));
		assertThat(reconcileTime(prometheus).getLabels().get("region")).isEqualTo("eu-test");
		assertThat(reconcileTime(prometheus).getLabels().get("controller")).isEqualTo("widget");
	}

	@Test
	void widensNativeBucketsToKeepAtMostOneHundred() {
		PrometheusRegistry prometheus = new PrometheusRegistry();
		NativeHistogram.DataPoint reconcileTime = new ControllerRuntimeHistograms(prometheus, Set.of())
			.forController("widget")
			.reconcileTime();
		// 1 ns to 1000 s would take about 300 buckets at schema 3.
		for (int step = 0; step < 300; step++) {
			reconcileTime.observe(Math.pow(10, step / 25.0 - 9));
		}
		HistogramSnapshot.HistogramDataPointSnapshot series = reconcileTime(prometheus);
		assertThat(series.getCount()).isEqualTo(300);
		assertThat(series.getNativeBucketsForPositiveValues().size()).isPositive().isLessThanOrEqualTo(100);
		assertThat(series.getNativeSchema()).isLessThan(3);
	}

	@Test
	void leavesDisabledHistogramsUnregistered() throws Exception {
		PrometheusRegistry prometheus = new PrometheusRegistry();
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(new SimpleMeterRegistry(), prometheus,
				Set.of(ControllerRuntimeHistograms.QUEUE_DURATION), this.failures);
		metrics.timeControllerExecution(execution("done", null));
		assertThat(prometheus.scrape().stream().map((snapshot) -> snapshot.getMetadata().getPrometheusName()))
			.containsExactlyInAnyOrder(ControllerRuntimeHistograms.RECONCILE_TIME,
					ControllerRuntimeHistograms.WORK_DURATION);
	}

	@Test
	void countsAnErrorThatEscapesTheReconcilerAsAPanicAndRethrowsIt() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(registry, new PrometheusRegistry(),
				this.failures);
		StackOverflowError overflow = new StackOverflowError();
		assertThatExceptionOfType(StackOverflowError.class)
			.isThrownBy(() -> metrics.timeControllerExecution(execution(null, overflow)))
			.isSameAs(overflow);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> metrics.timeControllerExecution(execution(null, new IllegalStateException("handled"))));
		assertThat(registry.get("controller.runtime.reconcile.panics").counter().count()).isEqualTo(1.0);
		assertThat(registry.get("controller.runtime.reconcile.errors").counter().count()).isEqualTo(2.0);
	}

	private static HistogramSnapshot.HistogramDataPointSnapshot reconcileTime(PrometheusRegistry prometheus) {
		HistogramSnapshot reconcileTime = (HistogramSnapshot) prometheus.scrape()
			.stream()
			.filter((snapshot) -> snapshot.getMetadata()
				.getPrometheusName()
				.equals(ControllerRuntimeHistograms.RECONCILE_TIME))
			.findFirst()
			.orElseThrow();
		return reconcileTime.getDataPoints().get(0);
	}

}
