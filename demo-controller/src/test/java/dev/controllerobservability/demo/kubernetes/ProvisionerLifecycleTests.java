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

import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Provisioner created on the embedded mock API server gets its per-object series, its
 * own and the resource state ones, in {@code /actuator/prometheus}; deleting it removes
 * every one of them, with no code in the demo that forgets it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "demo.mode=kubernetes", "demo.round-interval=100ms", "demo.min-launch-latency=1ms",
				"demo.max-launch-latency=5ms" })
@AutoConfigureMetrics
@DirtiesContext
class ProvisionerLifecycleTests {

	private static final Map<String, String> SHORT_LIVED = Map.of("cluster", "demo", "kind", "Provisioner", "namespace",
			"default", "name", "short-lived");

	@LocalServerPort
	private int port;

	@Autowired
	private KubernetesClient client;

	@Test
	void seriesOfAProvisionerAppearWithItAndLeaveWhenItIsDeleted() {
		ProvisionerResource provisioner = new ProvisionerResource();
		provisioner.getMetadata().setName("short-lived");
		provisioner.getMetadata().setNamespace("default");
		provisioner.setSpec(new ProvisionerResource.Spec());
		this.client.resource(provisioner).create();
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			PrometheusScrape scrape = scrape();
			assertThat(scrape.value("karpenter_provisioner_launched_nodes", SHORT_LIVED)).isZero();
			assertThat(scrape.value("karpenter_resource_generation", SHORT_LIVED)).isEqualTo(1.0);
			assertThat(scrape.value("karpenter_resource_observed_generation", SHORT_LIVED)).isEqualTo(1.0);
			assertThat(scrape.value("karpenter_resource_created_timestamp_seconds", SHORT_LIVED)).isGreaterThan(0);
			assertThat(scrape.value("karpenter_resource_status_condition", condition("True"))).isEqualTo(1.0);
			assertThat(scrape.value("karpenter_resource_status_condition", condition("False"))).isZero();
			assertThat(scrape.value("karpenter_resource_status_condition", condition("Unknown"))).isZero();
		});
		this.client.resource(provisioner).delete();
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			PrometheusScrape scrape = scrape();
			for (String family : new String[] { "karpenter_provisioner_launched_nodes", "karpenter_resource_generation",
					"karpenter_resource_observed_generation", "karpenter_resource_created_timestamp_seconds",
					"karpenter_resource_status_condition" }) {
				assertThat(scrape.samples(family)).as(family)
					.noneMatch((sample) -> "short-lived".equals(sample.labels().get("name")))
					.anyMatch((sample) -> "Provisioner".equals(sample.labels().get("kind")));
			}
		});
	}

	private static Map<String, String> condition(String status) {
		Map<String, String> labels = new HashMap<>(SHORT_LIVED);
		labels.put("type", "Ready");
		labels.put("status", status);
		return labels;
	}

	private PrometheusScrape scrape() throws Exception {
		return PrometheusScrape.fetch("http://localhost:" + this.port + "/actuator/prometheus");
	}

}
