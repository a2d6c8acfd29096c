package dev.controllerobservability.demo.kubernetes;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import dev.controllerobservability.internal.kubernetes.KubernetesConventions;
import dev.controllerobservability.test.PrometheusScrape;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The demo in kubernetes mode on the embedded fabric8 mock API server: the operator
 * reconciles the three Provisioners as pods arrive, and one scrape of
 * {@code /actuator/prometheus} holds its controller-runtime metrics, its leader election
 * status, its API client's metrics and the controller's own operation metrics.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "demo.mode=kubernetes", "demo.round-interval=100ms", "demo.min-launch-latency=1ms",
				"demo.max-launch-latency=5ms" })
@AutoConfigureMetrics
@DirtiesContext
class KubernetesModeTests {

	private static final Map<String, String> PROVISIONER = Map.of("controller", "provisioner");

	@LocalServerPort
	private int port;

	@Autowired
	private KubernetesClient client;

	@Autowired
	private LiveMetrics liveMetrics;

	@Test
	void findsReconcileClientAndOperationMetricsInOneScrape() {
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
			PrometheusScrape scrape = PrometheusScrape.fetch("http://localhost:" + this.port + "/actuator/prometheus");
			assertThat(scrape.value("controller_runtime_reconcile_total", with("result", "success"))).isGreaterThan(0);
			assertThat(scrape.value("controller_runtime_reconcile_time_seconds_count", PROVISIONER)).isGreaterThan(0);
			assertThat(scrape.value("controller_runtime_max_concurrent_reconciles", PROVISIONER)).isGreaterThan(0);
			// The operator reconciles because it leads the election on its lease.
			assertThat(scrape.value("leader_election_master_status", Map.of("name", KubernetesMode.LEASE_NAME)))
				.isEqualTo(1.0);
			assertThat(scrape.value("workqueue_adds_total", Map.of("name", "provisioner", "controller", "provisioner")))
				.isGreaterThan(0);
			// The provisioners were in the API server before the operator started: its
			// initial list queued them at controller-runtime's low priority.
			assertThat(scrape.samples("workqueue_depth")).extracting((sample) -> sample.labels().get("priority"))
				.contains(KubernetesConventions.LOW_PRIORITY, KubernetesConventions.DEFAULT_PRIORITY);
			// The mock API server answers patches with 202 Accepted.
			assertThat(scrape.samples("rest_client_requests_total"))
				.extracting((sample) -> sample.labels().get("method") + " " + sample.labels().get("code"))
				.contains("GET 200", "POST 201", "PATCH 202");
			assertThat(scrape.samples("karpenter_provisioner_apply_packing_duration_seconds_count"))
				.anySatisfy((sample) -> assertThat(sample.value()).isGreaterThan(0));
			assertThat(scrape.samples("karpenter_allocation_controller_bind_duration_seconds_count"))
				.anySatisfy((sample) -> assertThat(sample.value()).isGreaterThan(0));
		});
		ProvisionerResource gpu = this.client.resources(ProvisionerResource.class)
			.inNamespace("default")
			.withName("gpu")
			.get();
		// The status is written by the first reconcile: until then it is null, which is
		// asserted (and so waited for) rather than dereferenced.
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			ProvisionerResource current = this.client.resources(ProvisionerResource.class)
				.inNamespace("default")
				.withName("gpu")
				.get();
			assertThat(current).isNotNull();
			assertThat(current.getStatus()).isNotNull();
			assertThat(current.getStatus().getBoundPods()).isGreaterThan(0);
		});
		assertThat(gpu.getSpec().isGpu()).isTrue();
		this.liveMetrics.lint().assertNoControllerFindings();
	}

	private static Map<String, String> with(String key, String value) {
		Map<String, String> labels = new HashMap<>(PROVISIONER);
		labels.put(key, value);
		return labels;
	}

}
