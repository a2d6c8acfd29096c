package dev.controllerobservability.operations;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aop.aspectj.annotation.AspectJProxyFactory;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.operations.OperationRecorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Whatever goes wrong while recording, on the direct path and the observation path alike:
 * the work runs exactly once, its result or exception is unchanged, the failure is
 * counted, and no in-flight gauge is left up.
 */
class CallerIsolationTests {

	private final AtomicInteger runs = new AtomicInteger();

	@ParameterizedTest(name = "direct={0}")
	@ValueSource(booleans = { true, false })
	void aNullOperationNameRunsTheWorkOnceUnrecordedAlsoWhenBound(boolean direct) throws Exception {
		Recording recording = new Recording(Clock.SYSTEM, direct);
		ControllerOperations operations = recording.operations;
		assertThat(operations.observe(null, Tags.of("provisioner", "gpu"), this::work)).isEqualTo("done");
		operations.observe(null, Tags.of("provisioner", "gpu"), (Runnable) this::work);
		assertThat(operations.<String, Exception>observeChecked(null, Tags.empty(), this::work)).isEqualTo("done");
		operations.runChecked(null, null, this::work);
		assertThat(this.runs).hasValue(4);
		assertThat(recording.failures.count()).isEqualTo(4);
		assertThat(recording.errorsCounter()).isEqualTo(4);
		OperationHandle handle = operations.bind(null, Tags.of("provisioner", "gpu"));
		assertThat(handle.isRecorded()).isFalse();
		assertThat(handle.observe(this::work)).isEqualTo("done");
		handle.observe((Runnable) this::work);
		IllegalStateException nodeGone = new IllegalStateException("node gone");
		assertThatIllegalStateException().isThrownBy(() -> handle.observeChecked(() -> {
			this.runs.incrementAndGet();
			throw nodeGone;
		})).isSameAs(nodeGone);
		assertThat(this.runs).hasValue(7);
		assertThat(recording.failures.count()).isEqualTo(7);
		assertThat(recording.errorsCounter()).isEqualTo(7);
	}

	/**
	 * A registry clock that always throws (period 0: no start time, so nothing else is
	 * tried) or throws at every stop (period 2: every second reading). Either way one
	 * failure per call.
	 */
	@ParameterizedTest(name = "direct={0}, failing every {1}th reading")
	@CsvSource({ "true,0", "false,0", "true,2", "false,2" })
	void aClockThatThrowsRunsTheWorkOnceAndLeavesNothingInFlight(boolean direct, int period) {
		Recording recording = new Recording(new ThrowingClock(period), direct);
		assertCallsUnaffected(recording);
		assertThat(recording.inFlight()).isZero();
		assertThat(recording.failures.count()).isEqualTo(2);
		assertThat(recording.errorsCounter()).isEqualTo(2);
	}

	@ParameterizedTest(name = "direct={0}")
	@ValueSource(booleans = { true, false })
	void anOperationTagWhoseToStringFailsRunsTheMethodOnce(boolean direct) {
		Recording recording = new Recording(Clock.SYSTEM, direct);
		Provisioner target = new Provisioner();
		Provisioner provisioner = proxy(target, recording);
		assertThat(provisioner.launch(new Hostile(null))).isEqualTo("launched");
		assertThat(provisioner.launch(new Hostile(new IllegalStateException("toString broken")))).isEqualTo("launched");
		IllegalStateException noCapacity = new IllegalStateException("no capacity");
		assertThatIllegalStateException().isThrownBy(() -> provisioner.fail(new Hostile(null), noCapacity))
			.isSameAs(noCapacity);
		assertThat(target.calls).hasValue(3);
		// Every hostile value becomes "none", and each is counted as a failure.
		assertThat(recording.registry.get("karpenter.launch.duration")
			.tags("provisioner", "none", "result", "success")
			.timer()
			.count()).isEqualTo(2);
		assertThat(recording.registry.get("karpenter.fail.duration")
			.tags("provisioner", "none", "result", "error", "error", "IllegalStateException")
			.timer()
			.count()).isEqualTo(1);
		assertThat(recording.failures.count()).isEqualTo(3);
	}

	private void assertCallsUnaffected(Recording recording) {
		assertThat(recording.operations.observe("bind", Tags.of("provisioner", "gpu"), this::work)).isEqualTo("done");
		IllegalStateException nodeGone = new IllegalStateException("node gone");
		assertThatIllegalStateException()
			.isThrownBy(() -> recording.operations.observe("bind", Tags.of("provisioner", "gpu"), (Runnable) () -> {
				this.runs.incrementAndGet();
				throw nodeGone;
			}))
			.isSameAs(nodeGone);
		assertThat(this.runs).hasValue(2);
	}

	private String work() {
		this.runs.incrementAndGet();
		return "done";
	}

	private static Provisioner proxy(Provisioner target, Recording recording) {
		AspectJProxyFactory factory = new AspectJProxyFactory(target);
		factory.setProxyTargetClass(true);
		factory.addAspect(new ObservedOperationAspect(recording.operations, recording.failures));
		return factory.getProxy();
	}

	/** The operations wired on a registry with the given clock, on one path. */
	private static final class Recording {

		final SimpleMeterRegistry registry;

		final RecordingFailures failures;

		final ControllerOperations operations;

		Recording(Clock clock, boolean direct) {
			this.registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
			this.failures = new RecordingFailures(this.registry, "karpenter", Duration.ofHours(1));
			OperationRecorder handler = new OperationRecorder(this.registry, this.failures);
			ObservationRegistry observations = ObservationRegistry.create();
			observations.observationConfig().observationHandler(handler);
			ControllerOperations.Builder builder = ControllerOperations.builder(observations, this.failures)
				.labelKeys(List.of("provisioner"))
				.namespace("karpenter");
			if (direct) {
				builder.directRecording(handler, List.of());
			}
			this.operations = builder.build();
		}

		double errorsCounter() {
			return this.registry.get("karpenter.observability.errors").counter().count();
		}

		double inFlight() {
			return this.registry.find("karpenter.bind.in_flight")
				.gauges()
				.stream()
				.mapToDouble((gauge) -> gauge.value())
				.sum();
		}

	}

	/** A clock whose monotonic readings fail: always, or every {@code period}-th one. */
	private static final class ThrowingClock implements Clock {

		private final int period;

		private final AtomicLong readings = new AtomicLong();

		ThrowingClock(int period) {
			this.period = period;
		}

		@Override
		public long wallTime() {
			return System.currentTimeMillis();
		}

		@Override
		public long monotonicTime() {
			long reading = this.readings.incrementAndGet();
			if (this.period == 0 || reading % this.period == 0) {
				throw new IllegalStateException("clock broken");
			}
			return TimeUnit.MILLISECONDS.toNanos(reading);
		}

	}

	/** An argument whose {@code toString()} returns {@code null} or throws. */
	private record Hostile(RuntimeException failure) {

		@Override
		public String toString() {
			if (this.failure != null) {
				throw this.failure;
			}
			return null;
		}

	}

	static class Provisioner {

		final AtomicInteger calls = new AtomicInteger();

		@ObservedOperation("launch")
		public String launch(@OperationTag("provisioner") Object provisioner) {
			this.calls.incrementAndGet();
			return "launched";
		}

		@ObservedOperation("fail")
		public String fail(@OperationTag("provisioner") Object provisioner, RuntimeException failure) {
			this.calls.incrementAndGet();
			throw failure;
		}

	}

}
