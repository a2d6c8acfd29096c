package dev.controllerobservability.autoconfigure;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Declared metrics as a real scrape of {@code /actuator/prometheus} shows them: annotated
 * help, pre-set zeros, the renamed metric's alias, hidden and disabled metrics, label
 * limits, collectors and the stability self-metrics (catalog in
 * {@code application-catalog.yaml}, controller version 1.5.0).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("catalog")
@AutoConfigureMetrics
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CatalogScrapeIntegrationTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerMetrics metrics;

	private final Map<String, Integer> phases = new ConcurrentHashMap<>(Map.of("Pending", 2, "Running", 5));

	private PrometheusScrape scrape;

	@BeforeAll
	void recordAndScrape() throws Exception {
		this.metrics.counter("nodes_launched_total", "provisioner", "gpu", "zone", "us-east-1a").increment(3);
		this.metrics.counter("nodes_launched_total", "provisioner", "gpu", "zone", "eu-west-1").increment();
		this.metrics.counter("nodes_terminated_total", "provisioner", "gpu").increment();
		this.metrics.counter("old_pods_total").increment();
		for (String provisioner : new String[] { "a", "b", "c", "d", "e" }) {
			this.metrics.gauge("pending_pods", "provisioner", provisioner).set(1);
		}
		this.metrics.info("build_info", "version", "1.5.0");
		this.metrics.histogram("packing_seconds").observe(0.5);
		this.metrics.collect("pods_by_phase",
				(samples) -> this.phases.forEach((phase, count) -> samples.add(count, "phase", phase)));
		this.scrape = scrape();
	}

	@Test
	void annotatesHelpWithStabilityAndDeprecation() {
		assertThat(this.scrape.help("karpenter_nodes_launched_total")).isEqualTo("[STABLE] Number of nodes launched.");
		assertThat(this.scrape.help("karpenter_pending_pods"))
			.isEqualTo("[ALPHA] (Deprecated since 1.5.0) Number of pending pods.");
		assertThat(this.scrape.help("karpenter_rounds_total")).isEqualTo("[ALPHA] Number of provisioning rounds.");
		assertThat(this.scrape.type("karpenter_packing_seconds")).isEqualTo("histogram");
		assertThat(this.scrape.type("karpenter_build_info")).isEqualTo("gauge");
		assertThat(this.scrape.value("karpenter_build_info", Map.of("cluster", "test", "version", "1.5.0")))
			.isEqualTo(1);
	}

	@Test
	void emitsTheReplacedNameWithTheSameValuesDuringTheWindow() {
		Map<String, String> labels = Map.of("cluster", "test", "provisioner", "gpu", "zone", "us-east-1a");
		assertThat(this.scrape.value("karpenter_nodes_launched_total", labels)).isEqualTo(3);
		assertThat(this.scrape.value("karpenter_node_launches_total", labels)).isEqualTo(3);
		assertThat(this.scrape.help("karpenter_node_launches_total")).isEqualTo(
				"[STABLE] (Deprecated since 1.4.0) Number of nodes launched. Replaced by karpenter_nodes_launched_total.");
	}

	@Test
	void presetsKnownSeriesAtZero() {
		assertThat(this.scrape.value("karpenter_rounds_total", Map.of("cluster", "test", "result", "success")))
			.isZero();
		assertThat(this.scrape.value("karpenter_rounds_total", Map.of("cluster", "test", "result", "error"))).isZero();
	}

	@Test
	void leavesOutHiddenAndDisabledMetrics() {
		assertThat(this.scrape.families()).doesNotContain("karpenter_old_pods_total",
				"karpenter_nodes_terminated_total");
		assertThat(this.scrape.value("karpenter_hidden_metrics_total", Map.of("cluster", "test"))).isEqualTo(1);
		assertThat(this.scrape.value("karpenter_disabled_metrics_total", Map.of("cluster", "test"))).isEqualTo(1);
	}

	@Test
	void countsRegisteredMetricsByLevelAndDeprecation() {
		assertThat(registered("STABLE", "")).isEqualTo(1);
		assertThat(registered("STABLE", "1.4.0")).isEqualTo(1);
		assertThat(registered("ALPHA", "1.5.0")).isEqualTo(1);
		assertThat(registered("ALPHA", "")).isEqualTo(4);
	}

	@Test
	void categorizesValuesOutsideTheAllowListAndBeyondTheCapAsUnexpected() {
		assertThat(this.scrape.value("karpenter_nodes_launched_total",
				Map.of("cluster", "test", "provisioner", "gpu", "zone", "unexpected")))
			.isEqualTo(1);
		assertThat(this.scrape.samples("karpenter_pending_pods"))
			.extracting((sample) -> sample.labels().get("provisioner"))
			.containsExactlyInAnyOrder("a", "b", "c", "unexpected");
		assertThat(this.scrape.value("karpenter_cardinality_enforcement_unexpected_categorizations_total",
				Map.of("cluster", "test")))
			.isEqualTo(3);
	}

	@Test
	void computesCollectorsAtScrapeTimeAndDropsStaleSeries() throws Exception {
		assertThat(this.scrape.value("karpenter_pods_by_phase", Map.of("cluster", "test", "phase", "Pending")))
			.isEqualTo(2);
		this.phases.remove("Pending");
		this.phases.put("Running", 9);
		PrometheusScrape next = scrape();
		assertThat(next.samples("karpenter_pods_by_phase")).singleElement()
			.satisfies((sample) -> assertThat(sample.labels()).containsEntry("phase", "Running"))
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(9));
		this.phases.put("Pending", 2);
		this.phases.put("Running", 5);
	}

	@Test
	void keepsTheCatalogAndLintEndpointsUnexposedByDefault() throws Exception {
		for (String endpoint : new String[] { "controllermetrics", "controllermetricslint" }) {
			int status = java.net.http.HttpClient.newHttpClient()
				.send(java.net.http.HttpRequest
					.newBuilder(java.net.URI.create("http://localhost:" + this.port + "/actuator/" + endpoint))
					.build(), java.net.http.HttpResponse.BodyHandlers.discarding())
				.statusCode();
			assertThat(status).as(endpoint).isEqualTo(404);
		}
	}

	private double registered(String level, String deprecatedVersion) {
		return this.scrape.value("karpenter_registered_metrics_total",
				Map.of("cluster", "test", "stability_level", level, "deprecated_version", deprecatedVersion));
	}

	private PrometheusScrape scrape() throws Exception {
		return PrometheusScrape.fetch("http://localhost:" + this.port + "/actuator/prometheus");
	}

	// No component scan: this package holds the auto-configuration itself.
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
