package dev.controllerobservability.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Tags;
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

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.OperationTag;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Times {@code bind} and {@code apply-packing} through the call and the annotation in a
 * real web application, then scrapes {@code /actuator/prometheus} over HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "controller.observability.namespace=karpenter",
				"controller.observability.operations.tags=provisioner",
				"controller.observability.common-tags.cluster=test",
				"controller.observability.operations.definitions.bind.subsystem=allocation_controller",
				"controller.observability.operations.definitions.bind.description=Duration of binding pods to nodes.",
				"controller.observability.operations.definitions.apply-packing.buckets=0.01,0.1,1" })
@AutoConfigureMetrics
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperationsScrapeIntegrationTests {

	private static final String BIND = "karpenter_allocation_controller_bind_duration_seconds";

	private static final String PACKING = "karpenter_apply_packing_duration_seconds";

	private static final IllegalStateException LAUNCH_FAILURE = new IllegalStateException("no capacity");

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerOperations operations;

	@Autowired
	private Binder binder;

	private PrometheusScrape scrape;

	@BeforeAll
	void timeOperationsAndScrape() throws Exception {
		for (int i = 0; i < 3; i++) {
			String result = this.operations.observe("bind", Tags.of("provisioner", "default"), () -> "bound");
			assertThat(result).isEqualTo("bound");
		}
		for (int i = 0; i < 2; i++) {
			assertThatThrownBy(() -> this.operations.observe("bind", Tags.of("provisioner", "gpu"), () -> {
				throw LAUNCH_FAILURE;
			})).isSameAs(LAUNCH_FAILURE);
		}
		for (int i = 0; i < 4; i++) {
			assertThat(this.binder.bind("spot", "pod-" + i)).isEqualTo("pod-" + i + "@node");
		}
		this.operations.observe("apply-packing", Tags.of("provisioner", "default"), () -> {
		});
		assertThat(this.binder.pack("gpu", 5)).isEqualTo(5);
		assertThat(this.binder.pack("gpu", 6)).isEqualTo(6);
		assertThatThrownBy(() -> this.binder.pack("spot", -1)).isInstanceOf(IllegalArgumentException.class)
			.hasMessage("negative pod count -1");
		this.operations.observe("apply-packing", Tags.empty(), () -> {
		});
		this.scrape = scrape();
	}

	@Test
	void exposesOperationFamiliesWithHelpAndType() {
		assertThat(this.scrape.families()).contains(BIND, PACKING, "karpenter_allocation_controller_bind_in_flight",
				"karpenter_apply_packing_in_flight", "karpenter_observability_errors_total");
		assertThat(this.scrape.type(BIND)).isEqualTo("histogram");
		assertThat(this.scrape.type("karpenter_allocation_controller_bind_in_flight")).isEqualTo("gauge");
		assertThat(this.scrape.help(BIND)).isEqualTo("Duration of binding pods to nodes.");
		assertThat(this.scrape.help(PACKING)).isEqualTo("Duration of apply packing operations in seconds.");
		assertThat(this.scrape.help("karpenter_apply_packing_in_flight"))
			.isEqualTo("Number of apply packing operations in flight.");
	}

	@Test
	void countsEveryCallByProvisionerResultAndError() {
		assertThat(count(BIND, "default", "success", "none")).isEqualTo(3);
		assertThat(count(BIND, "gpu", "error", "IllegalStateException")).isEqualTo(2);
		assertThat(count(BIND, "spot", "success", "none")).isEqualTo(4);
		assertThat(this.scrape.samples(BIND + "_count")).hasSize(3);
		assertThat(count(PACKING, "default", "success", "none")).isEqualTo(1);
		assertThat(count(PACKING, "gpu", "success", "none")).isEqualTo(2);
		assertThat(count(PACKING, "spot", "error", "IllegalArgumentException")).isEqualTo(1);
		assertThat(count(PACKING, "none", "success", "none")).isEqualTo(1);
		assertThat(this.scrape.samples(PACKING + "_count")).hasSize(4);
	}

	@Test
	void everySeriesCarriesEveryLabelKey() {
		Set<String> keys = Set.of("cluster", "provisioner", "result", "error");
		assertThat(this.scrape.labelKeySets(BIND + "_count")).containsExactly(keys);
		assertThat(this.scrape.labelKeySets(BIND + "_sum")).containsExactly(keys);
		assertThat(this.scrape.labelKeySets(BIND + "_bucket"))
			.containsExactly(Set.of("cluster", "provisioner", "result", "error", "le"));
		assertThat(this.scrape.labelKeySets("karpenter_allocation_controller_bind_in_flight"))
			.containsExactly(Set.of("cluster", "provisioner"));
		assertThat(this.scrape.value(BIND + "_count",
				Map.of("cluster", "test", "provisioner", "default", "result", "success", "error", "none")))
			.isEqualTo(3);
	}

	@Test
	void usesTheDefaultControllerRuntimeBucketsUnlessAnOperationHasItsOwn() {
		List<Double> expected = new java.util.ArrayList<>(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS);
		expected.add(Double.POSITIVE_INFINITY);
		assertThat(boundaries(BIND, "default")).hasSize(41).containsExactlyElementsOf(expected);
		assertThat(boundaries(PACKING, "gpu")).containsExactly(0.01, 0.1, 1.0, Double.POSITIVE_INFINITY);
		assertThat(this.scrape.value(BIND + "_bucket", Map.of("cluster", "test", "provisioner", "default", "result",
				"success", "error", "none", "le", "+Inf")))
			.isEqualTo(3);
	}

	@Test
	void replacesTheDefaultObservationHandlerForOperations() {
		assertThat(this.scrape.families()).filteredOn((family) -> family.startsWith("karpenter_"))
			.containsExactlyInAnyOrder(BIND, PACKING, "karpenter_allocation_controller_bind_duration_seconds_max",
					"karpenter_apply_packing_duration_seconds_max", "karpenter_allocation_controller_bind_in_flight",
					"karpenter_apply_packing_in_flight", "karpenter_observability_errors_total",
					"karpenter_observability_scrape_errors_total",
					"karpenter_cardinality_enforcement_unexpected_categorizations_total",
					"karpenter_cardinality_enforcement_series_overflows_total", "karpenter_disabled_metrics_total",
					"karpenter_hidden_metrics_total");
		assertThat(this.scrape.families())
			.noneMatch((family) -> family.equals("karpenter_allocation_controller_bind_seconds")
					|| family.equals("karpenter_apply_packing_seconds"));
		assertThat(this.scrape.samples("karpenter_observability_errors_total")).singleElement()
			.satisfies((sample) -> assertThat(sample.value()).isZero());
	}

	@Test
	void leavesFrameworkMetricsUnprefixedAndUntagged() {
		assertThat(this.scrape.families()).contains("jvm_memory_used_bytes", "process_uptime_seconds");
		assertThat(this.scrape.families()).noneMatch((family) -> family.startsWith("karpenter_jvm")
				|| family.startsWith("karpenter_process") || family.startsWith("karpenter_http"));
		assertThat(this.scrape.samples("jvm_memory_used_bytes"))
			.allSatisfy((sample) -> assertThat(sample.labels()).doesNotContainKey("cluster"));
	}

	@Test
	void showsOperationsInFlightWhileTheyRun() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		CompletableFuture<String> call = CompletableFuture
			.supplyAsync(() -> this.operations.observe("bind", Tags.of("provisioner", "inflight"), () -> {
				started.countDown();
				await(release);
				return "done";
			}));
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		Map<String, String> labels = Map.of("cluster", "test", "provisioner", "inflight");
		assertThat(scrape().value("karpenter_allocation_controller_bind_in_flight", labels)).isEqualTo(1);
		release.countDown();
		assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		assertThat(scrape().value("karpenter_allocation_controller_bind_in_flight", labels)).isZero();
	}

	@Test
	void exposesHealthAndPrometheusOnlyWithoutAnyExposureSetting() throws Exception {
		assertThat(status("/actuator/health")).isEqualTo(200);
		assertThat(status("/actuator/prometheus")).isEqualTo(200);
		assertThat(status("/actuator/env")).isEqualTo(404);
		assertThat(status("/actuator/beans")).isEqualTo(404);
	}

	private int status(String path) throws Exception {
		return java.net.http.HttpClient.newHttpClient()
			.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + this.port + path))
				.build(), java.net.http.HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

	private double count(String family, String provisioner, String result, String error) {
		return this.scrape.value(family + "_count",
				Map.of("cluster", "test", "provisioner", provisioner, "result", result, "error", error));
	}

	private List<Double> boundaries(String family, String provisioner) {
		return this.scrape.samples(family + "_bucket")
			.stream()
			.filter((sample) -> provisioner.equals(sample.labels().get("provisioner")))
			.filter((sample) -> "success".equals(sample.labels().get("result")))
			.map((sample) -> Double.parseDouble(sample.labels().get("le").replace("+Inf", "Infinity")))
			.toList();
	}

	private PrometheusScrape scrape() throws Exception {
		return PrometheusScrape.fetch("http://localhost:" + this.port + "/actuator/prometheus");
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	// No component scan: this package holds the auto-configuration itself.
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Binder binder() {
			return new Binder();
		}

	}

	/** Operations timed through the annotation. */
	static class Binder {

		@ObservedOperation("bind")
		public String bind(@OperationTag("provisioner") String provisioner, String pod) {
			return pod + "@node";
		}

		@ObservedOperation("apply-packing")
		public int pack(@OperationTag("provisioner") String provisioner, int pods) {
			if (pods < 0) {
				throw new IllegalArgumentException("negative pod count " + pods);
			}
			return pods;
		}

	}

}
