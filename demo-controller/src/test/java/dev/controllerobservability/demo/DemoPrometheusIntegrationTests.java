package dev.controllerobservability.demo;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.controllerobservability.test.PrometheusSample;
import dev.controllerobservability.test.PrometheusServer;
import dev.controllerobservability.live.ControllerArtefacts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo scraped by a real Prometheus server that loads the demo's generated rules:
 * with every spot launch failing and none of the others (and the error-ratio alert's
 * {@code for} shortened), the launch error-ratio alert fires for spot, and only for spot.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "demo.round-interval=100ms", "demo.min-launch-latency=1ms", "demo.max-launch-latency=5ms",
				"demo.provisioners.spot.launch-failure-rate=1.0",
				// With few launches yet, a 10% failure rate can exceed the threshold by
				// chance.
				"demo.provisioners.default.launch-failure-rate=0", "demo.provisioners.gpu.launch-failure-rate=0",
				"controller.observability.rules.operations.launch.error-ratio.for=0s" })
@AutoConfigureMetrics
class DemoPrometheusIntegrationTests {

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerArtefacts artefacts;

	@Test
	void firesTheLaunchErrorAlertForTheFailingProvisioner() {
		try (PrometheusServer prometheus = PrometheusServer.scraping(this.port)
			.rules(this.artefacts.rulesFile())
			.start()
			.awaitTargetsUp(Duration.ofSeconds(30))) {
			prometheus.awaitQuery("ALERTS{alertname=\"KarpenterLaunchErrorRatioHigh\",alertstate=\"firing\"}",
					(samples) -> !samples.isEmpty(), Duration.ofSeconds(60));
			Set<String> firing = prometheus
				.query("ALERTS{alertname=\"KarpenterLaunchErrorRatioHigh\",alertstate=\"firing\"}")
				.stream()
				.map((sample) -> sample.labels().get("provisioner"))
				.collect(Collectors.toSet());
			assertThat(firing).containsExactly("spot");
			assertThat(prometheus.queryScalar("up")).isEqualTo(1);
			assertThat(prometheus.ruleHealth()).hasSize(13)
				.allSatisfy((rule, health) -> assertThat(health).as(rule).isIn("ok", "unknown"));
			assertThat(prometheus.query("karpenter_pending_pods")).extracting(PrometheusSample::labels)
				.extracting((labels) -> labels.get("provisioner"))
				.containsExactlyInAnyOrder("default", "gpu", "spot");
			// Every spot launch fails, so spot never gets a launched-nodes series.
			assertThat(prometheus.query("karpenter_nodes_launched_total{provisioner=\"spot\"}")).isEmpty();
			assertThat(prometheus.queryScalar("sum(karpenter_nodes_launched_total)")).isPositive();
		}
	}

}
