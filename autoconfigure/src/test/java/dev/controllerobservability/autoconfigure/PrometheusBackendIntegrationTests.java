package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.List;

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
import org.springframework.context.annotation.Import;

import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.test.PrometheusServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code controller.observability.operations.backend=prometheus} against a real
 * Prometheus server with native histograms enabled: the protobuf scrape carries native
 * buckets that PromQL's native-histogram functions read, the text format still carries
 * the classic buckets, and the operation has no {@code _max} gauge.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.config.name=minimal-app", "controller.observability.operations.backend=prometheus",
				"management.metrics.tags.region=eu", "controller.observability.common-tags.cluster=dev" })
@AutoConfigureMetrics
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusBackendIntegrationTests {

	private static final String ISSUED = "{job=\"%s\",provisioner=~\"a|b\"}";

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerOperations operations;

	@Autowired
	private MockClock clock;

	private PrometheusServer prometheus;

	@BeforeAll
	void recordThenScrape() {
		assertThat(this.operations.isRecordingDirectly()).isTrue();
		for (int i = 0; i < 37; i++) {
			String provisioner = (i < 25) ? "a" : "b";
			this.operations.observe("bind", Tags.of("provisioner", provisioner),
					() -> this.clock.add(Duration.ofMillis(110)));
		}
		this.prometheus = PrometheusServer.scraping(this.port)
			.job("text", this.port, "/metrics-text")
			.flags("--enable-feature=native-histograms")
			.start()
			.awaitTargetsUp(Duration.ofSeconds(30));
		this.prometheus.awaitQuery("histogram_count(sum(karpenter_bind_duration_seconds" + issued("controller") + "))",
				(samples) -> samples.size() == 1 && samples.get(0).value() == 37, Duration.ofSeconds(30));
		this.prometheus.awaitQuery("sum(karpenter_bind_duration_seconds_count" + issued("text") + ")",
				(samples) -> samples.size() == 1 && samples.get(0).value() == 37, Duration.ofSeconds(30));
	}

	@AfterAll
	void stopPrometheus() {
		if (this.prometheus != null) {
			this.prometheus.close();
		}
	}

	@Test
	void placesTheQuantileOfTheNativeHistogramNextToTheInjectedLatency() {
		double p99 = this.prometheus
			.queryScalar("histogram_quantile(0.99, sum(karpenter_bind_duration_seconds" + issued("controller") + "))");
		// Schema 3 buckets are 2^(1/8) wide: (2^(-26/8), 2^(-25/8)] = (0.1051, 0.1146]
		// holds 110 ms. The classic bucket (0.1, 0.15] is over five times wider.
		assertThat(p99).isGreaterThan(0.105).isLessThanOrEqualTo(0.1147);
	}

	@Test
	void keepsTheClassicBucketsInTheTextFormat() {
		double p99 = this.prometheus.queryScalar(
				"histogram_quantile(0.99, sum by (le) (karpenter_bind_duration_seconds_bucket" + issued("text") + "))");
		assertThat(p99).isGreaterThan(0.1).isLessThanOrEqualTo(0.15);
	}

	@Test
	void labelsTheHistogramsWithTheCommonTagsOfMicrometerAndTheController() {
		assertThat(this.prometheus.query("karpenter_bind_duration_seconds_count" + issued("text"))).hasSize(2)
			.allSatisfy((sample) -> assertThat(sample.labels()).containsEntry("region", "eu")
				.containsEntry("cluster", "dev"));
		assertThat(this.prometheus.query("karpenter_bind_in_flight" + issued("text"))).hasSize(2)
			.allSatisfy((sample) -> assertThat(sample.labels()).containsEntry("region", "eu")
				.containsEntry("cluster", "dev"));
	}

	@Test
	void keepsOnlyTheNativeFormWhereTheServerAsksForItOnPrometheus2() {
		// What docs/operations.md warns about: Prometheus 2.x with native histograms
		// keeps only the native form of a histogram that has both.
		assumeTrue(
				this.prometheus.selfMetrics().contains("prometheus_build_info{")
						&& this.prometheus.selfMetrics().matches("(?s).*prometheus_build_info\\{[^}]*version=\"2\\..*"),
				"a Prometheus 2.x server");
		assertThat(this.prometheus.query("karpenter_bind_duration_seconds_count" + issued("controller"))).isEmpty();
		assertThat(this.prometheus.query("karpenter_bind_duration_seconds_bucket" + issued("controller"))).isEmpty();
		assertThat(this.prometheus.query("karpenter_bind_duration_seconds_count" + issued("text"))).hasSize(2);
	}

	@Test
	void exposesNoMaxGaugeForAnAlphaOperation() {
		assertThat(this.prometheus.query("karpenter_bind_duration_seconds_max")).isEmpty();
		assertThat(this.prometheus.query("karpenter_bind_in_flight" + issued("controller"))).hasSize(2);
	}

	private static String issued(String job) {
		return ISSUED.formatted(job);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(MinimalAppPrometheusIntegrationTests.TextFormatEndpoint.class)
	static class TestApplication {

		@Bean
		MockClock micrometerClock() {
			return new MockClock();
		}

	}

}
