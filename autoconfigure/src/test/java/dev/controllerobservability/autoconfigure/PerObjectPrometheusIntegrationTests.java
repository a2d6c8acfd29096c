package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricGauge;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.test.PrometheusSample;
import dev.controllerobservability.test.PrometheusServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-object metrics declared in YAML, scraped by a real Prometheus: a forgotten object's
 * series, and a series idle for its time to live, go stale at the next scrape, while the
 * other objects' series stay.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.config.name=per-object-app")
@AutoConfigureMetrics
class PerObjectPrometheusIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(60);

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerMetrics metrics;

	private PrometheusServer prometheus;

	@AfterEach
	void stopPrometheus() {
		if (this.prometheus != null) {
			this.prometheus.close();
		}
	}

	@Test
	void aForgottenObjectsSeriesGoStaleAndTheOthersStay() {
		ObjectRef web = ObjectRef.of("prod", "web-tls");
		ObjectRef api = ObjectRef.of("prod", "api-tls");
		for (ObjectRef object : List.of(web, api)) {
			this.metrics.counter("certificate_renewals_total", object, "result", "success").increment(3);
			this.metrics.gauge("certificate_ready_status", object, "condition", "Ready").set(1);
			this.metrics.histogram("certificate_issue_seconds", object).observe(0.7);
		}
		this.prometheus = PrometheusServer.scraping(this.port).start().awaitTargetsUp(WAIT);
		String families = "{namespace=\"prod\",__name__=~\"certs_certificate_(renewals_total|ready_status|issue_seconds_count)\"}";
		this.prometheus.awaitQuery("count by (name) (" + families + ")",
				(samples) -> samples.size() == 2 && samples.stream().allMatch((sample) -> sample.value() == 3), WAIT);

		assertThat(this.metrics.forget(web)).isEqualTo(3);

		List<PrometheusSample> left = this.prometheus
			.awaitQuery(families,
					(samples) -> samples.size() == 3
							&& samples.stream().allMatch((sample) -> sample.labels().get("name").equals("api-tls")),
					WAIT);
		assertThat(left).extracting(PrometheusSample::value).containsExactlyInAnyOrder(3.0, 1.0, 1.0);
		// The series were there before they went stale.
		assertThat(this.prometheus.query("last_over_time(certs_certificate_renewals_total{name=\"web-tls\"}[1h])"))
			.extracting(PrometheusSample::value)
			.containsExactly(3.0);
	}

	@Test
	void aSeriesIdleForItsTimeToLiveGoesStale() {
		ObjectRef web = ObjectRef.of("Certificate", "staging", "seen-tls");
		this.metrics.counter("certificate_renewals_total", web, "result", "success").increment();
		this.prometheus = PrometheusServer.scraping(this.port).start().awaitTargetsUp(WAIT);
		// Written until Prometheus has scraped it once, then left alone.
		MetricGauge seen = this.metrics.gauge("certificate_seen_timestamp_seconds", web);
		await().atMost(WAIT).until(() -> {
			seen.set(1_700_000_000);
			return this.prometheus.query("certs_certificate_seen_timestamp_seconds{kind=\"Certificate\"}").size() == 1;
		});
		this.prometheus.awaitQuery("certs_certificate_seen_timestamp_seconds", List::isEmpty, WAIT);
		// A metric without a time to live keeps the object's series.
		assertThat(this.prometheus.query("certs_certificate_renewals_total{name=\"seen-tls\"}")).hasSize(1);
		this.metrics.forget(web);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class PerObjectApplication {

	}

}
