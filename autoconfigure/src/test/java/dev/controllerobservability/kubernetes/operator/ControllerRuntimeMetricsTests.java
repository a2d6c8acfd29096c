package dev.controllerobservability.kubernetes.operator;

import java.time.Duration;
import java.util.Map;

import io.javaoperatorsdk.operator.api.monitoring.Metrics.ControllerExecution;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.metrics.RecordingFailures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Recording never changes what the operator sees, even when the registry fails.
 */
class ControllerRuntimeMetricsTests {

	private final SimpleMeterRegistry failing = new SimpleMeterRegistry();

	private final SimpleMeterRegistry selfMetrics = new SimpleMeterRegistry();

	private final RecordingFailures failures = new RecordingFailures(this.selfMetrics, "karpenter", Duration.ofHours(1));

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
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(this.failing, this.failures);
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
		ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(registry, this.failures);
		metrics.receivedEvent(new Event(new ResourceID("a", "default")), Map.of());
		metrics.cleanupDoneFor(new ResourceID("a", "default"), null);
		assertThat(registry.getMeters()).isEmpty();
		assertThat(this.failures.count()).isZero();
	}

	private static ControllerExecution<String> execution(String result, Exception error) {
		return new ControllerExecution<>() {

			@Override
			public String name() {
				return "reconcile";
			}

			@Override
			public String controllerName() {
				return "widget";
			}

			@Override
			public String successTypeName(String value) {
				return "resource";
			}

			@Override
			public ResourceID resourceID() {
				return new ResourceID("a", "default");
			}

			@Override
			public Map<String, Object> metadata() {
				return Map.of();
			}

			@Override
			public String execute() throws Exception {
				if (error != null) {
					throw error;
				}
				return result;
			}

		};
	}

}
