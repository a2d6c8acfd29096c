package dev.controllerobservability.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the demo for a few seconds with fast rounds and finds its operation metrics for
 * all three provisioners in one scrape of {@code /actuator/prometheus}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "demo.round-interval=50ms", "demo.min-launch-latency=1ms", "demo.max-launch-latency=5ms" })
@AutoConfigureMetrics
class DemoControllerApplicationTests {

	private static final Set<String> PROVISIONERS = Set.of("default", "gpu", "spot");

	private static final Set<String> FAMILIES = Set.of("karpenter_provisioner_apply_packing_duration_seconds",
			"karpenter_cloudprovider_launch_duration_seconds", "karpenter_allocation_controller_bind_duration_seconds");

	private static final Pattern COUNT = Pattern.compile("^(karpenter_[a-z_]+_duration_seconds)_count\\{(.*)} (\\S+)$",
			Pattern.MULTILINE);

	private static final Pattern PROVISIONER = Pattern.compile("provisioner=\"([^\"]*)\"");

	@LocalServerPort
	private int port;

	@Test
	void exposesOperationMetricsOfEveryProvisioner() throws Exception {
		Set<String> expected = new TreeSet<>();
		FAMILIES.forEach((family) -> PROVISIONERS.forEach((provisioner) -> expected.add(family + "/" + provisioner)));
		String scrape = await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(this::scrape, (text) -> successfulSeries(text).equals(expected));
		assertThat(scrape).contains(
				"# HELP karpenter_cloudprovider_launch_duration_seconds Duration of launching a node",
				"# TYPE karpenter_allocation_controller_bind_duration_seconds histogram",
				"karpenter_observability_errors_total{cluster=\"demo\"} 0.0");
		assertThat(scrape).containsPattern(
				"karpenter_cloudprovider_launch_duration_seconds_bucket\\{cluster=\"demo\",error=\"none\",provisioner=\"gpu\",result=\"success\",le=\"300.0\"}");
		assertThat(scrape).containsPattern("(?m)^jvm_memory_used_bytes\\{area=");
	}

	@Test
	void exposesItsDeclaredCatalog() throws Exception {
		String scrape = await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(this::scrape,
					(text) -> text.contains("karpenter_nodes_launched_total{cluster=\"demo\",provisioner=\"spot\"")
							&& text.contains("phase=\"Running\",provisioner=\"gpu\""));
		assertThat(scrape).contains(
				"# HELP karpenter_nodes_launched_total [STABLE] Number of nodes launched by a provisioner.",
				"# HELP karpenter_node_launches_total [STABLE] (Deprecated since 0.1.0) Number of nodes launched by a "
						+ "provisioner. Replaced by karpenter_nodes_launched_total.",
				"# HELP karpenter_nodes_terminated_total [BETA] Number of nodes terminated",
				"# HELP karpenter_pods_bound_total [ALPHA] (Deprecated since 0.1.0) Number of pods bound",
				"# TYPE karpenter_pods_per_node histogram",
				"karpenter_pending_pods{cluster=\"demo\",provisioner=\"gpu\"}",
				"karpenter_build_info{cluster=\"demo\",version=\"0.1.0-SNAPSHOT\"} 1",
				"karpenter_registered_metrics_total{cluster=\"demo\",deprecated_version=\"0.1.0\",stability_level=\"STABLE\"} 1.0",
				"karpenter_hidden_metrics_total{cluster=\"demo\"} 0.0");
		for (String provisioner : PROVISIONERS) {
			assertThat(scrape).contains("karpenter_nodes_launched_total{cluster=\"demo\",provisioner=\"" + provisioner)
				.contains("karpenter_provisioning_rounds_total{cluster=\"demo\",provisioner=\"" + provisioner
						+ "\",result=\"idle\"}")
				.contains("karpenter_pods_by_phase{cluster=\"demo\",phase=\"Pending\",provisioner=\"" + provisioner
						+ "\"}");
		}
	}

	@Test
	void bucketsItsPackingEfficiencyRatioExactly() {
		// Micrometer's distribution summary would count every ratio above 0 under
		// le="1.0", rounded up to 1: an observation under le="0.9" shows the true bucket.
		Pattern below = Pattern.compile("(?m)^karpenter_packing_efficiency_ratio_bucket\\{cluster=\"demo\","
				+ "provisioner=\"(\\w+)\",le=\"0.9\"} ([1-9][0-9]*)");
		String scrape = await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(this::scrape, (text) -> below.matcher(text).find());
		Matcher matcher = below.matcher(scrape);
		assertThat(matcher.find()).isTrue();
		String provisioner = matcher.group(1);
		String series = "{cluster=\"demo\",provisioner=\"" + provisioner + "\"";
		// Every ratio is at most 1: all of them are under le="1.0".
		assertThat(value(scrape, "karpenter_packing_efficiency_ratio_bucket" + series + ",le=\"1.0\"}"))
			.isEqualTo(value(scrape, "karpenter_packing_efficiency_ratio_count" + series + "}"))
			.isGreaterThanOrEqualTo(Double.parseDouble(matcher.group(2)));
		assertThat(scrape).contains("# TYPE karpenter_packing_efficiency_ratio histogram",
				"# HELP karpenter_packing_efficiency_ratio [ALPHA] Share of a launched node's CPU requested by the pods "
						+ "packed onto it.");
	}

	@Test
	void recordsItsProvisionerValidationWebhook() throws Exception {
		String review = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
				+ "\"request\":{\"uid\":\"1\",\"name\":\"gpu\"}}";
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/validate-provisioners"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(review))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"allowed\":true");
		String scrape = scrape();
		assertThat(value(scrape,
				"controller_runtime_webhook_requests_total{code=\"200\",webhook=\"/validate-provisioners\"}"))
			.isEqualTo(1.0);
		assertThat(value(scrape, "controller_runtime_webhook_requests_in_flight{webhook=\"/validate-provisioners\"}"))
			.isEqualTo(0.0);
	}

	private static double value(String scrape, String series) {
		return scrape.lines()
			.filter((line) -> line.startsWith(series + " "))
			.mapToDouble((line) -> Double.parseDouble(line.substring(series.length() + 1)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No series " + series + " in the scrape"));
	}

	/** family/provisioner pairs with at least one successful call. */
	private static Set<String> successfulSeries(String scrape) {
		Set<String> seen = new TreeSet<>();
		Matcher matcher = COUNT.matcher(scrape);
		while (matcher.find()) {
			Matcher provisioner = PROVISIONER.matcher(matcher.group(2));
			if (matcher.group(2).contains("result=\"success\"") && provisioner.find()
					&& Double.parseDouble(matcher.group(3)) > 0) {
				seen.add(matcher.group(1) + "/" + provisioner.group(1));
			}
		}
		return seen;
	}

	private String scrape() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/prometheus")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

}
