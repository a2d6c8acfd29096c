package dev.controllerobservability.example;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.docs.MetricsReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs what {@link PlainJavaOperator#main(String[])} runs, on the fabric8 mock API
 * server, and reads its HTTP endpoints as Prometheus and a user would.
 */
class PlainJavaOperatorTests {

	private static PlainJavaOperator.Example example;

	@BeforeAll
	static void startAndAwaitTheFirstReconcile() throws IOException {
		example = PlainJavaOperator.Example.start(0);
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(lines("/metrics")).contains(
					"widgets_apply_duration_seconds_count{error=\"none\",kind=\"ConfigMap\",result=\"success\"} 1"));
	}

	@AfterAll
	static void stop() {
		example.close();
	}

	@Test
	void scrapeHoldsTheOperationTheCatalogCounterAndControllerRuntimeSeries() throws Exception {
		assertThat(lines("/metrics")).contains(
				"widgets_apply_duration_seconds_count{error=\"none\",kind=\"ConfigMap\",result=\"success\"} 1",
				"widgets_apply_in_flight{kind=\"ConfigMap\"} 0.0",
				"widgets_configmaps_applied_total{kind=\"ConfigMap\"} 1.0",
				"controller_runtime_reconcile_total{controller=\"configmaps\",result=\"success\"} 1.0",
				"controller_runtime_reconcile_errors_total{controller=\"configmaps\"} 0.0");
	}

	@Test
	void operatorLeadsTheElectionOnALeaseOfTheMockApiServer() throws Exception {
		assertThat(lines("/metrics")).contains("leader_election_master_status{name=\"plain-java-operator\"} 1.0");
		try (KubernetesClient client = example.apiServer().createClient()) {
			Lease lease = client.leases().inNamespace("default").withName("plain-java-operator").get();
			assertThat(lease.getSpec().getHolderIdentity()).isNotEmpty();
		}
	}

	@Test
	void scrapeHoldsTheStandardProcessFamilies() throws Exception {
		assertThat(lines("/metrics")).contains("# TYPE process_cpu_seconds_total counter",
				"# TYPE process_resident_memory_bytes gauge", "# TYPE process_virtual_memory_bytes gauge",
				"# TYPE process_open_fds gauge", "# TYPE process_max_fds gauge",
				"# TYPE process_start_time_seconds gauge", "# TYPE process_uptime_seconds gauge");
	}

	@Test
	void scrapeCountsTheOperatorsApiCalls() throws Exception {
		String host = "localhost:" + example.apiServer().getPort();
		// The SDK's lease permission check and the lease's creation.
		assertThat(lines("/metrics"))
			.contains("rest_client_requests_total{code=\"201\",host=\"" + host + "\",method=\"POST\"} 2.0")
			.anyMatch((line) -> line
				.startsWith("rest_client_requests_total{code=\"200\",host=\"" + host + "\",method=\"GET\"} "));
	}

	@Test
	void linterFindsNothing() throws Exception {
		assertThat(example.operator().lint().findings()).isEmpty();
		assertThat(get("/lint")).isEqualTo(PlainJavaOperator.NO_FINDINGS);
	}

	@Test
	void referenceListsControllerKubernetesAndFrameworkMetrics() throws Exception {
		String reference = get("/reference");
		assertThat(reference).startsWith("# Plain Java operator metrics")
			.contains("## Alpha metrics", "## " + MetricsReference.KUBERNETES_HEADING,
					"## " + MetricsReference.FRAMEWORK_HEADING,
					"| `widgets_configmaps_applied_total` | counter | ConfigMaps applied. | `kind` | ALPHA |  |  |",
					"| `widgets_apply_duration_seconds` | histogram | Duration of apply operations in seconds. | `error`, `kind`, `result` | ALPHA |  |  |",
					"| `controller_runtime_reconcile_total` | counter |", "| `leader_election_master_status` | gauge |",
					"| `rest_client_requests_total` | counter |", "| `process_cpu_seconds_total` | counter |");
		assertThat(reference.indexOf("`process_cpu_seconds_total`"))
			.isGreaterThan(reference.indexOf("## " + MetricsReference.FRAMEWORK_HEADING));
		assertThat(reference.indexOf("`leader_election_master_status`"))
			.isGreaterThan(reference.indexOf("## " + MetricsReference.KUBERNETES_HEADING))
			.isLessThan(reference.indexOf("## " + MetricsReference.FRAMEWORK_HEADING));
	}

	@Test
	void docsQuoteTheScrape() throws Exception {
		List<String> quoted = DocsTests.blocks("")
			.stream()
			.filter((block) -> block.startsWith("widgets_"))
			.findFirst()
			.orElseThrow()
			.replace("<port>", String.valueOf(example.apiServer().getPort()))
			.lines()
			.toList();
		assertThat(quoted).hasSize(7);
		assertThat(lines("/metrics")).containsAll(quoted);
	}

	static String get(String path) throws IOException, InterruptedException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + example.port() + path)).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	static List<String> lines(String path) throws IOException, InterruptedException {
		return get(path).lines().toList();
	}

	@Test
	void aDeletedConfigMapsPerObjectSeriesLeaveWithIt() throws Exception {
		String series = "widgets_configmap_keys{kind=\"ConfigMap\",name=\"short-lived\",namespace=\"default\"}";
		// An operator of its own: the other tests count the reconciles of the shared one.
		try (PlainJavaOperator.Example own = PlainJavaOperator.Example.start(0);
				KubernetesClient client = own.apiServer().createClient()) {
			client
				.resource(new ConfigMapBuilder().withNewMetadata()
					.withName("short-lived")
					.withNamespace("default")
					.endMetadata()
					.addToData("a", "1")
					.addToData("b", "2")
					.build())
				.create();
			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(own.operator().scrape().lines()).contains(series + " 2.0"));
			client.configMaps().inNamespace("default").withName("short-lived").delete();
			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(own.operator().scrape().lines())
					.noneMatch((line) -> line.startsWith(series))
					.contains(
							"widgets_configmap_keys{kind=\"ConfigMap\",name=\"settings\",namespace=\"default\"} 0.0"));
		}
	}

}
