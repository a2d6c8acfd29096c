package dev.controllerobservability.reliability;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Tags;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.test.CapturedLog;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Operations still in flight when the application stops finish without an error, and no
 * thread of the starter outlives its context.
 */
class ShutdownReliabilityTests {

	@RegisterExtension
	final CapturedLog log = new CapturedLog(RecordingFailures.class);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				PrometheusMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter",
				"controller.observability.operations.tags=provisioner");

	@Test
	void finishesInFlightOperationsAfterCloseWithoutErrorsOrLeftoverThreads() throws Exception {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		CountDownLatch started = new CountDownLatch(4);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<?>[] calls = new CompletableFuture<?>[4];
		this.contextRunner.run((context) -> {
			ControllerOperations operations = context.getBean(ControllerOperations.class);
			for (int i = 0; i < calls.length; i++) {
				int call = i;
				calls[i] = CompletableFuture
					.supplyAsync(() -> operations.observe("bind", Tags.of("provisioner", "p" + call), () -> {
						started.countDown();
						await(release);
						return call;
					}));
			}
			assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		});
		release.countDown();
		for (int i = 0; i < calls.length; i++) {
			assertThat(calls[i].get(10, TimeUnit.SECONDS)).isEqualTo(i);
		}
		assertThat(this.log.events()).isEmpty();
		// Threads that are ending may still be alive for a moment: wait for them, not a
		// time.
		Awaitility.await()
			.pollInSameThread()
			.atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((thread) -> !before.contains(thread) && thread.isAlive())
				.filter((thread) -> !thread.getName().startsWith("ForkJoinPool.commonPool"))
				.map(Thread::getName)
				.collect(Collectors.toSet())).isEmpty());
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
