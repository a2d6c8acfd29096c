package dev.controllerobservability;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.controllerobservability.internal.metrics.SelfCounters;
import dev.controllerobservability.test.CapturedLog;

import static org.assertj.core.api.Assertions.assertThat;

class RecordingFailuresTests {

	@RegisterExtension
	final CapturedLog log = new CapturedLog(RecordingFailures.class);

	@RegisterExtension
	final CapturedLog selfCountersLog = new CapturedLog(SelfCounters.class);

	private final long[] now = { 0 };

	@Test
	void registersTheErrorCounterAtZero() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new RecordingFailures(registry, "karpenter", Duration.ofSeconds(10), () -> this.now[0]);
		assertThat(registry.get("karpenter.observability.errors").counter().count()).isZero();
		assertThat(registry.get("karpenter.observability.errors").counter().getId().getDescription())
			.startsWith("Number of times recording a controller metric failed");
	}

	@Test
	void logsOncePerIntervalWithTheNumberSuppressed() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofSeconds(10),
				() -> this.now[0]);
		for (int i = 0; i < 50; i++) {
			failures.record("test", new IllegalStateException("boom"));
		}
		assertThat(this.log.events()).hasSize(1);
		this.now[0] = TimeUnit.SECONDS.toNanos(9);
		failures.record("test", new IllegalStateException("boom"));
		assertThat(this.log.events()).hasSize(1);
		this.now[0] = TimeUnit.SECONDS.toNanos(11);
		failures.record("test", new IllegalStateException("boom"));
		assertThat(this.log.events()).hasSize(2);
		assertThat(this.log.events().get(1).getFormattedMessage()).contains("50 similar failure(s) were not logged");
		assertThat(failures.count()).isEqualTo(52);
		assertThat(registry.get("karpenter.observability.errors").counter().count()).isEqualTo(52);
	}

	@Test
	void keepsCountingWhenTheCounterCannotBeRegistered() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				throw new IllegalStateException("broken filter");
			}
		});
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofSeconds(10),
				() -> this.now[0]);
		failures.record("test", new IllegalStateException("boom"));
		assertThat(failures.count()).isEqualTo(1);
		assertThat(this.log.events()).hasSize(1);
		assertThat(this.selfCountersLog.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage())
				.contains("Could not register the self-metric karpenter.observability.errors"));
	}

}
