package dev.controllerobservability.autoconfigure.rules;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.live.LiveMetrics;
import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.lint.LintFinding;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The reference and the lint report are computed from a scrape once and reused until a
 * meter is added or removed.
 */
class LiveMetricsTests {

	private static final String RENEWALS_MS_FINDING = "karpenter_renewals_ms metric names should not contain abbreviated units";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				PrometheusMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter");

	@Test
	void reusesTheReferenceWhileNoMeterIsAddedOrRemoved() {
		this.contextRunner.run((context) -> {
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
			AtomicInteger scrapes = countScrapes(registry);
			MetricsReference first = liveMetrics.reference();
			assertThat(scrapes).hasValue(1);
			assertThat(liveMetrics.reference()).isSameAs(first);
			assertThat(scrapes).hasValue(1);
			assertThat(names(first)).doesNotContain("karpenter_late_pods");

			Meter late = Gauge.builder("karpenter.late.pods", () -> 3).description("Late pods.").register(registry);
			MetricsReference second = liveMetrics.reference();
			assertThat(scrapes).hasValue(2);
			assertThat(names(second)).contains("karpenter_late_pods");
			assertThat(liveMetrics.reference()).isSameAs(second);
			assertThat(scrapes).hasValue(2);

			registry.remove(late);
			assertThat(names(liveMetrics.reference())).doesNotContain("karpenter_late_pods");
			assertThat(scrapes).hasValue(3);
		});
	}

	@Test
	void reusesTheLintReportWhileNoMeterIsAddedOrRemoved() {
		this.contextRunner.run((context) -> {
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
			AtomicInteger scrapes = countScrapes(registry);
			LintReport first = liveMetrics.lint();
			assertThat(first.controllerFindings()).isEmpty();
			assertThat(liveMetrics.lint()).isSameAs(first);
			assertThat(scrapes).hasValue(1);

			Gauge.builder("karpenter.wait_ms", () -> 1).description("Wait.").register(registry);
			assertThat(liveMetrics.lint().controllerFindings()).extracting(LintFinding::metric)
				.containsExactly("karpenter_wait_ms");
			assertThat(liveMetrics.lint().controllerFindings()).hasSize(1);
			assertThat(scrapes).hasValue(2);
		});
	}

	@Test
	void lintsDeclaredMetricsWithoutSeriesAndReusesTheReport() {
		this.contextRunner
			.withPropertyValues("controller.observability.metrics.renewals_ms.type=gauge",
					"controller.observability.metrics.renewals_ms.help=Lease renewals.")
			.run((context) -> {
				PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
				LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
				assertThat(liveMetrics.exposition().families()).extracting(ExposedFamily::name)
					.doesNotContain("karpenter_renewals_ms");
				assertThat(names(liveMetrics.reference())).contains("karpenter_renewals_ms");
				AtomicInteger scrapes = countScrapes(registry);
				LintReport first = liveMetrics.lint();
				assertThat(first.controllerFindings()).extracting(LintFinding::toString)
					.containsExactly(RENEWALS_MS_FINDING);
				assertThat(liveMetrics.lint()).isSameAs(first);
				assertThat(scrapes).hasValue(1);

				Counter.builder("karpenter.renewal_time_ms").description("Renewal time.").register(registry);
				assertThat(liveMetrics.lint().controllerFindings()).extracting(LintFinding::toString)
					.containsExactlyInAnyOrder(RENEWALS_MS_FINDING,
							"karpenter_renewal_time_ms_total metric names should not contain abbreviated units");
				assertThat(scrapes).hasValue(2);
			});
	}

	@Test
	void lintsDeclaredOperationsBeforeTheirFirstCall() {
		this.contextRunner
			.withPropertyValues("controller.observability.operations.definitions.renew_ms.subsystem=lease")
			.run((context) -> {
				LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
				assertThat(liveMetrics.exposition().families()).extracting(ExposedFamily::name)
					.noneMatch((name) -> name.contains("renew_ms"));
				assertThat(liveMetrics.lint().controllerFindings()).extracting(LintFinding::metric)
					.contains("karpenter_lease_renew_ms_duration_seconds",
							"karpenter_lease_renew_ms_duration_seconds_max");
			});
	}

	@Test
	void letsConcurrentCallersWaitForOneScrape() {
		this.contextRunner.run((context) -> {
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
			CountDownLatch scraping = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			AtomicInteger scrapes = new AtomicInteger();
			Gauge.builder("karpenter.scrapes", () -> {
				scrapes.incrementAndGet();
				scraping.countDown();
				awaitQuietly(release);
				return 0;
			}).description("Scrapes.").register(registry);
			CompletableFuture<MetricsReference> first = CompletableFuture.supplyAsync(liveMetrics::reference);
			assertThat(scraping.await(30, TimeUnit.SECONDS)).isTrue();
			AtomicReference<Thread> secondThread = new AtomicReference<>();
			CompletableFuture<MetricsReference> second = CompletableFuture.supplyAsync(() -> {
				secondThread.set(Thread.currentThread());
				return liveMetrics.reference();
			}, (task) -> new Thread(task, "second-caller").start());
			await().atMost(Duration.ofSeconds(30))
				.until(() -> secondThread.get() != null && secondThread.get().getState() == Thread.State.BLOCKED);
			release.countDown();
			assertThat(second.get(30, TimeUnit.SECONDS)).isSameAs(first.get(30, TimeUnit.SECONDS));
			assertThat(scrapes).hasValue(1);
		});
	}

	@Test
	void alwaysScrapesAgainForTheExposition() {
		this.contextRunner.run((context) -> {
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
			AtomicInteger scrapes = countScrapes(registry);
			liveMetrics.exposition();
			liveMetrics.exposition();
			assertThat(scrapes).hasValue(2);
		});
	}

	// The gauge's value is read once per scrape; it counts them.
	private static AtomicInteger countScrapes(PrometheusMeterRegistry registry) {
		AtomicInteger scrapes = new AtomicInteger();
		Gauge.builder("karpenter.scrapes", scrapes, AtomicInteger::incrementAndGet)
			.description("Scrapes.")
			.register(registry);
		scrapes.set(0);
		return scrapes;
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static Iterable<String> names(MetricsReference reference) {
		return reference.entries().stream().map(ReferenceEntry::name).toList();
	}

}
