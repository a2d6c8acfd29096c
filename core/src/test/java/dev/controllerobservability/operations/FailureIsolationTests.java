package dev.controllerobservability.operations;

import java.util.List;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.test.CapturedLog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Recording never throws into the caller and never changes its result or exception;
 * failures are counted and logged at a limited rate.
 */
class FailureIsolationTests {

	private static final int CALLS = 1_000;

	@RegisterExtension
	final CapturedLog log = new CapturedLog(RecordingFailures.class);

	@Test
	void registryThatThrowsOnRecordLeavesResultsAndExceptionsUnchanged() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry() {
			@Override
			protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
				Timer real = super.newTimer(id, config, pauseDetector);
				return new ThrowingTimer(real);
			}
		};
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofHours(1));
		ControllerOperations operations = operations(registry, failures);
		assertCallsUnaffected(operations);
		assertThat(failures.count()).isEqualTo(2L * CALLS);
		assertThat(registry.get("karpenter.observability.errors").counter().count()).isEqualTo(2.0 * CALLS);
		assertThat(this.log.events()).hasSize(1);
		assertThat(this.log.events().get(0).getLevel()).isEqualTo(Level.WARN);
		assertThat(this.log.events().get(0).getFormattedMessage()).contains("duration of bind",
				"the controller's work is unaffected");
	}

	@Test
	void filterThatThrowsOnRegistrationLeavesResultsAndExceptionsUnchanged() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofHours(1));
		registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if (id.getName().startsWith("karpenter.bind")) {
					throw new IllegalStateException("broken filter");
				}
				return id;
			}
		});
		ControllerOperations operations = operations(registry, failures);
		assertCallsUnaffected(operations);
		// Each call fails twice: registering the in-flight gauge and the timer.
		assertThat(failures.count()).isEqualTo(4L * CALLS);
		assertThat(registry.get("karpenter.observability.errors").counter().count()).isEqualTo(4.0 * CALLS);
		assertThat(this.log.events()).hasSize(1);
	}

	@Test
	void observationHandlerThatThrowsLeavesResultsAndExceptionsUnchanged() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofHours(1));
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new ThrowingHandler());
		ControllerOperations operations = ControllerOperations.builder(observations, failures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter")
			.build();
		assertCallsUnaffected(operations);
		// Start, scope and stop fail on every call; error on the failing calls too.
		assertThat(failures.count()).isEqualTo(7L * CALLS);
		assertThat(this.log.events()).hasSize(1);
	}

	@Test
	void handlerThatThrowsAfterTheMeterHandlerLeavesInFlightBalanced() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofHours(1));
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig()
			.observationHandler(new OperationRecorder(registry, failures))
			.observationHandler(new ThrowingHandler());
		ControllerOperations operations = ControllerOperations.builder(observations, failures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter")
			.build();
		assertThat(operations.observe("bind", Tags.of("provisioner", "gpu"), () -> "ok")).isEqualTo("ok");
		assertThat(registry.get("karpenter.bind.in_flight").gauge().value()).isZero();
		assertThat(registry.get("karpenter.bind.duration").timer().count()).isEqualTo(1);
	}

	@Test
	void unknownTagKeysAreDroppedAndReported() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofHours(1));
		ControllerOperations operations = operations(registry, failures);
		String result = operations.observe("bind", Tags.of("provisioner", "gpu", "pod", "pod-1"), () -> "ok");
		assertThat(result).isEqualTo("ok");
		assertThat(registry.get("karpenter.bind.duration")
			.tags("provisioner", "gpu", "result", "success", "error", "none")
			.timer()
			.count()).isEqualTo(1);
		assertThat(registry.find("karpenter.bind.duration").tagKeys("pod").timer()).isNull();
		assertThat(failures.count()).isEqualTo(1);
		assertThat(this.log.events().get(0).getThrowableProxy().getMessage())
			.contains("Tag 'pod' is not an operation label", "ControllerObservability.Builder.operationTags(…)");
	}

	@Test
	void invalidOperationNamesRunTheWorkUnobserved() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofHours(1));
		ControllerOperations operations = operations(registry, failures);
		AtomicInteger runs = new AtomicInteger();
		operations.observe("!!!", Tags.empty(), runs::incrementAndGet);
		assertThat(runs).hasValue(1);
		assertThat(failures.count()).isEqualTo(1);
		assertThat(registry.getMeters()).extracting((meter) -> meter.getId().getName())
			.containsExactly("karpenter.observability.errors");
	}

	@Test
	void aNullOperationNameRunsTheWorkAndSaysWhatIsWrongOnTheDirectPathToo() {
		ControllerObservability observability = ControllerObservability.builder(new SimpleMeterRegistry()).build();
		AtomicInteger runs = new AtomicInteger();
		observability.operations().observe(null, Tags.empty(), runs::incrementAndGet);
		assertThat(runs).hasValue(1);
		assertThat(observability.failures().count()).isEqualTo(1);
		assertThat(this.log.events()).singleElement()
			.satisfies((event) -> assertThat(event.getThrowableProxy().getMessage())
				.isEqualTo("Operation name must not be null; name the operation, such as 'bind'"));
	}

	private void assertCallsUnaffected(ControllerOperations operations) {
		IllegalStateException failure = new IllegalStateException("launch failed");
		for (int i = 0; i < CALLS; i++) {
			int expected = i;
			assertThat(operations.observe("bind", Tags.of("provisioner", "p" + (i % 5)), () -> expected))
				.isEqualTo(expected);
			assertThatThrownBy(() -> operations.observe("bind", Tags.of("provisioner", "gpu"), () -> {
				throw failure;
			})).isSameAs(failure);
		}
	}

	private static ControllerOperations operations(SimpleMeterRegistry registry, RecordingFailures failures) {
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new OperationRecorder(registry, failures));
		return ControllerOperations.builder(observations, failures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter")
			.build();
	}

	/** A timer whose recording always fails. */
	private static final class ThrowingTimer implements Timer {

		private final Timer delegate;

		ThrowingTimer(Timer delegate) {
			this.delegate = delegate;
		}

		@Override
		public void record(long amount, TimeUnit unit) {
			throw new IllegalStateException("broken registry");
		}

		@Override
		public <T> T recordCallable(java.util.concurrent.Callable<T> f) {
			throw new IllegalStateException("broken registry");
		}

		@Override
		public <T> T record(java.util.function.Supplier<T> f) {
			throw new IllegalStateException("broken registry");
		}

		@Override
		public void record(Runnable f) {
			throw new IllegalStateException("broken registry");
		}

		@Override
		public long count() {
			return this.delegate.count();
		}

		@Override
		public double totalTime(TimeUnit unit) {
			return this.delegate.totalTime(unit);
		}

		@Override
		public double max(TimeUnit unit) {
			return this.delegate.max(unit);
		}

		@Override
		public TimeUnit baseTimeUnit() {
			return this.delegate.baseTimeUnit();
		}

		@Override
		public io.micrometer.core.instrument.distribution.HistogramSnapshot takeSnapshot() {
			return this.delegate.takeSnapshot();
		}

		@Override
		public Id getId() {
			return this.delegate.getId();
		}

	}

	/** A handler that fails at every step of the observation. */
	static final class ThrowingHandler implements ObservationHandler<Observation.Context> {

		@Override
		public void onStart(Observation.Context context) {
			throw new IllegalStateException("start");
		}

		@Override
		public void onError(Observation.Context context) {
			throw new IllegalStateException("error");
		}

		@Override
		public void onScopeOpened(Observation.Context context) {
			throw new IllegalStateException("scope");
		}

		@Override
		public void onStop(Observation.Context context) {
			throw new IllegalStateException("stop");
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

}
