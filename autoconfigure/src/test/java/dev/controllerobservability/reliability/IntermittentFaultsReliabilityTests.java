package dev.controllerobservability.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.test.CapturedLog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter and a handler that fail now and then, from several threads: every call returns
 * its own result or throws its own exception, every failure is counted, and the log gets
 * one line per interval, not one per failure.
 */
class IntermittentFaultsReliabilityTests {

	@RegisterExtension
	final CapturedLog log = new CapturedLog(RecordingFailures.class);

	@Test
	void countsIntermittentFailuresAndLeavesEveryCallUnchanged() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		AtomicLong mapCalls = new AtomicLong();
		registry.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				// Registration of every third new meter fails.
				if (id.getName().startsWith("karpenter.bind") && mapCalls.incrementAndGet() % 3 == 0) {
					throw new IllegalStateException("filter hiccup");
				}
				return id;
			}
		});
		RecordingFailures failures = new RecordingFailures(registry, "karpenter", Duration.ofHours(1));
		AtomicLong handlerCalls = new AtomicLong();
		AtomicLong handlerFailures = new AtomicLong();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig()
			.observationHandler(new OperationRecorder(registry, failures))
			.observationHandler(new ObservationHandler<>() {
				@Override
				public void onStart(Observation.Context context) {
					if (handlerCalls.incrementAndGet() % 7 == 0) {
						handlerFailures.incrementAndGet();
						throw new IllegalStateException("handler hiccup");
					}
				}

				@Override
				public boolean supportsContext(Observation.Context context) {
					return true;
				}
			});
		ControllerOperations operations = ControllerOperations.builder(observations, failures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter")
			.build();
		ExecutorService threads = Executors.newFixedThreadPool(4);
		List<Future<Integer>> results = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			results.add(threads.submit(() -> {
				int unchanged = 0;
				for (int i = 0; i < 5_000; i++) {
					int expected = i;
					IllegalArgumentException own = new IllegalArgumentException("own " + i);
					if (operations.observe("bind", Tags.of("provisioner", "p" + (i % 20)),
							() -> expected) == expected) {
						unchanged++;
					}
					try {
						operations.observe("bind", Tags.of("provisioner", "p" + (i % 20)), () -> {
							throw own;
						});
					}
					catch (IllegalArgumentException ex) {
						if (ex == own) {
							unchanged++;
						}
					}
				}
				return unchanged;
			}));
		}
		int unchanged = 0;
		for (Future<Integer> result : results) {
			unchanged += result.get(2, TimeUnit.MINUTES);
		}
		threads.shutdown();
		assertThat(unchanged).isEqualTo(4 * 5_000 * 2);
		assertThat(handlerFailures.get()).isPositive();
		assertThat(failures.count()).isGreaterThanOrEqualTo(handlerFailures.get());
		assertThat(registry.get("karpenter.observability.errors").counter().count()).isEqualTo(failures.count());
		assertThat(this.log.events()).hasSize(1);
	}

}
