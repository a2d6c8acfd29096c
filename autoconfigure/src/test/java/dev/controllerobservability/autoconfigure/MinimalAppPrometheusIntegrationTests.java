package dev.controllerobservability.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.live.LiveMetrics;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.test.PrometheusSample;
import dev.controllerobservability.test.PrometheusScrape;
import dev.controllerobservability.test.PrometheusServer;
import dev.controllerobservability.test.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A minimal user application with the starter, scraped by a real Prometheus server in
 * both exposition formats: the numbers Prometheus answers are the ones the application
 * recorded.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.config.name=minimal-app")
@AutoConfigureMetrics
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MinimalAppPrometheusIntegrationTests {

	private static final String COUNT = "karpenter_bind_duration_seconds_count";

	private static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0,"
			+ "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

	private static final String ISSUED = "{job=\"controller\",provisioner=~\"a|b\"}";

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerOperations operations;

	@Autowired
	private ControllerMetrics metrics;

	@Autowired
	private MockClock clock;

	@Autowired
	private ControllerArtefacts artefacts;

	@Autowired
	private LiveMetrics liveMetrics;

	private final Map<String, Integer> queues = new ConcurrentHashMap<>(Map.of("x", 3, "y", 4));

	private PrometheusServer prometheus;

	@BeforeAll
	void recordThenScrape() {
		IllegalStateException failure = new IllegalStateException("bind failed");
		for (int i = 0; i < 37; i++) {
			String provisioner = (i < 25) ? "a" : "b";
			boolean fails = i < 5;
			try {
				this.operations.observe("bind", Tags.of("provisioner", provisioner), () -> {
					// The registry's clock: every call lasts exactly 110 ms, however
					// loaded the machine.
					this.clock.add(Duration.ofMillis(110));
					if (fails) {
						throw failure;
					}
				});
			}
			catch (IllegalStateException ex) {
				assertThat(ex).isSameAs(failure);
			}
		}
		this.metrics.gauge("pending_pods").set(42);
		this.metrics.collect("queue_depth",
				(samples) -> this.queues.forEach((queue, depth) -> samples.add(depth, "queue", queue)));
		this.prometheus = PrometheusServer.scraping(this.port)
			.job("text", this.port, "/metrics-text")
			.rules(this.artefacts.rulesFile())
			.start()
			.awaitTargetsUp(Duration.ofSeconds(30));
		this.prometheus.awaitQuery("sum(" + COUNT + ISSUED + ")",
				(samples) -> samples.size() == 1 && samples.get(0).value() == 37, Duration.ofSeconds(30));
	}

	@AfterAll
	void stopPrometheus() {
		if (this.prometheus != null) {
			this.prometheus.close();
		}
	}

	@Test
	void countsEveryOperationByProvisionerAndResult() {
		Map<String, Double> counts = this.prometheus.query("sum by (provisioner, result) (" + COUNT + ISSUED + ")")
			.stream()
			.collect(Collectors.toMap(
					(sample) -> sample.labels().get("provisioner") + "/" + sample.labels().get("result"),
					PrometheusSample::value));
		assertThat(counts)
			.containsExactlyInAnyOrderEntriesOf(Map.of("a/success", 20.0, "a/error", 5.0, "b/success", 12.0));
	}

	@Test
	void placesTheQuantileInTheBucketOfTheInjectedLatency() {
		double p99 = this.prometheus.queryScalar(
				"histogram_quantile(0.99, sum by (le) (karpenter_bind_duration_seconds_bucket" + ISSUED + "))");
		assertThat(p99).isGreaterThan(0.1).isLessThanOrEqualTo(0.15);
	}

	@Test
	void scrapesBothFormatsWithoutErrorsOrRejections() throws Exception {
		for (String job : List.of("controller", "text")) {
			assertThat(this.prometheus.queryScalar("up{job=\"" + job + "\"}")).as("up of %s", job).isEqualTo(1);
			assertThat(this.prometheus.queryScalar("scrape_samples_scraped{job=\"" + job + "\"}")).isGreaterThan(100);
			assertThat(this.prometheus.queryScalar("sum(" + COUNT + "{job=\"" + job + "\",provisioner=~\"a|b\"})"))
				.isEqualTo(37);
		}
		// Prometheus 2.x asks for OpenMetrics first; the text job above gets the 0.0.4
		// text format.
		assertThat(contentTypeFor(PROMETHEUS_ACCEPT)).startsWith("application/openmetrics-text");
		Exposition self = Exposition.parse(this.prometheus.selfMetrics());
		for (String rejection : List.of("prometheus_target_scrapes_sample_out_of_order_total",
				"prometheus_target_scrapes_sample_duplicate_timestamp_total",
				"prometheus_target_scrapes_sample_out_of_bounds_total",
				"prometheus_target_scrapes_exceeded_sample_limit_total")) {
			assertThat(self.family(rejection)).as(rejection).isPresent();
			assertThat(selfValue(rejection)).as(rejection).isZero();
		}
	}

	@Test
	void showsCatalogValuesAndLetsRemovedCollectorSeriesGoStale() {
		assertThat(this.prometheus.queryScalar("karpenter_pending_pods{job=\"controller\"}")).isEqualTo(42);
		assertThat(this.prometheus.queryScalar("karpenter_queue_depth{job=\"controller\",queue=\"y\"}")).isEqualTo(4);
		this.queues.remove("x");
		this.prometheus.awaitQuery("karpenter_queue_depth{job=\"controller\",queue=\"x\"}", List::isEmpty,
				Duration.ofSeconds(20));
		assertThat(this.prometheus.queryScalar("karpenter_queue_depth{job=\"controller\",queue=\"y\"}")).isEqualTo(4);
	}

	@Test
	void evaluatesTheGeneratedRulesAndFiresWhenTheConditionIsForced() {
		ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
		AtomicInteger calls = new AtomicInteger();
		load.scheduleAtFixedRate(() -> {
			try {
				this.operations.observe("bind", Tags.of("provisioner", "c"), () -> {
					if (calls.incrementAndGet() % 2 == 0) {
						throw new IllegalStateException("forced");
					}
				});
			}
			catch (IllegalStateException ex) {
				// Half of the forced calls fail, on purpose.
			}
		}, 0, 50, TimeUnit.MILLISECONDS);
		try {
			this.prometheus.awaitQuery(
					"ALERTS{alertname=\"KarpenterBindErrorRatioHigh\",alertstate=\"firing\",provisioner=\"c\"}",
					(samples) -> samples.size() == 1, Duration.ofSeconds(40));
		}
		finally {
			load.shutdownNow();
		}
		assertThat(this.prometheus.alerts())
			.anySatisfy((alert) -> assertThat(alert).containsEntry("alertname", "KarpenterBindErrorRatioHigh")
				.containsEntry("provisioner", "c")
				.containsEntry("severity", "warning")
				.containsEntry("__state__", "firing"));
		assertThat(this.prometheus.ruleHealth()).containsEntry("KarpenterBindErrorRatioHigh", "ok")
			.containsEntry("KarpenterBindLatencyHigh", "ok")
			.containsEntry("provisioner:karpenter_bind_duration_seconds_count:rate5m", "ok");
	}

	@Test
	void passesPromtoolOnTheControllerMetrics() throws Exception {
		assertThat(Promtool.checkMetrics(this.liveMetrics.scrape()))
			.noneMatch((problem) -> problem.startsWith("karpenter_"));
	}

	private double selfValue(String name) {
		return PrometheusScrape.parse(this.prometheus.selfMetrics())
			.samples(name)
			.stream()
			.mapToDouble(PrometheusScrape.Sample::value)
			.sum();
	}

	private String contentTypeFor(String accept) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/prometheus"))
				.header("Accept", accept)
				.build(), HttpResponse.BodyHandlers.discarding())
			.headers()
			.firstValue("Content-Type")
			.orElse("");
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		MockClock micrometerClock() {
			return new MockClock();
		}

		@Bean
		TextFormatEndpoint textFormatEndpoint(PrometheusMeterRegistry registry) {
			return new TextFormatEndpoint(registry);
		}

	}

	/**
	 * The same metrics in the Prometheus text format 0.0.4, whatever the scraper asks.
	 */
	@RestController
	static class TextFormatEndpoint {

		private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

		private final PrometheusMeterRegistry registry;

		TextFormatEndpoint(PrometheusMeterRegistry registry) {
			this.registry = registry;
		}

		@GetMapping("/metrics-text")
		ResponseEntity<String> scrape() {
			return ResponseEntity.ok().header("Content-Type", TEXT).body(this.registry.scrape(TEXT));
		}

	}

}
