package dev.controllerobservability.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog and lint endpoints, once exposed, serve the live reference as JSON and
 * Markdown and the lint findings.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"management.endpoints.web.exposure.include=health,prometheus,controllermetrics,controllermetricslint,controllerrules",
		"controller.observability.alerts.KarpenterRoundsFailing.expr=rate(${namespace}_rounds_total{result=\"error\"}[5m]) > 0",
		"controller.observability.alerts.KarpenterRoundsFailing.severity=warning",
		"controller.observability.alerts.KarpenterRoundsFailing.summary=Rounds fail" })
@ActiveProfiles("catalog")
@AutoConfigureMetrics
class EndpointsIntegrationTests {

	@LocalServerPort
	private int port;

	@Test
	void servesTheCatalogAndLiveMetadataAsJson() throws Exception {
		HttpResponse<String> response = get("/actuator/controllermetrics");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).startsWith("{\"namespace\":\"karpenter\",\"metrics\":[")
			.contains("{\"name\":\"karpenter_nodes_launched_total\",\"type\":\"counter\","
					+ "\"help\":\"Number of nodes launched.\",\"labels\":[\"cluster\",\"provisioner\",\"zone\"],"
					+ "\"stability\":\"STABLE\",\"deprecatedVersion\":null,\"replacedBy\":null,\"buckets\":[],"
					+ "\"group\":\"CONTROLLER\"}")
			.contains("\"name\":\"jvm_memory_used_bytes\"");
	}

	@Test
	void servesTheReferenceAsMarkdownOnRequest() throws Exception {
		HttpResponse<String> response = get("/actuator/controllermetrics/markdown");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/markdown"));
		assertThat(response.body()).startsWith("# Metrics of namespace karpenter")
			.contains(
					"| `karpenter_node_launches_total` | counter | Number of nodes launched. | `cluster`, `provisioner`, "
							+ "`zone` | STABLE | 1.4.0 | `karpenter_nodes_launched_total` |");
		assertThat(get("/actuator/controllermetrics/html").statusCode()).isEqualTo(404);
	}

	@Test
	void servesLintFindingsOfControllerAndFrameworkMetricsApart() throws Exception {
		HttpResponse<String> response = get("/actuator/controllermetricslint");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).startsWith("{\"controller\":[],\"framework\":[")
			.contains("{\"metric\":\"jvm_compilation_time_ms_total\",\"text\":\"metric names should not contain "
					+ "abbreviated units\",\"controllerMetric\":false}");
	}

	@Test
	void servesTheRulesAndTheirRenderings() throws Exception {
		assertThat(get("/actuator/controllerrules").body()).startsWith("{\"group\":\"karpenter.rules\"")
			.contains(
					"\"alerts\":[{\"name\":\"KarpenterRoundsFailing\",\"expr\":\"rate(karpenter_rounds_total{result=\\\"error\\\"}[5m]) > 0\"");
		assertThat(get("/actuator/controllerrules/prometheus").body())
			.startsWith("groups:\n  - name: karpenter.rules\n")
			.contains("- alert: KarpenterRoundsFailing");
		assertThat(get("/actuator/controllerrules/prometheusrule").body())
			.startsWith("apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\n");
		assertThat(get("/actuator/controllerrules/dashboard").body()).contains("\"uid\": \"karpenter-controller\"",
				"karpenter_rounds_total");
		assertThat(get("/actuator/controllerrules/grafana").statusCode()).isEqualTo(404);
	}

	private HttpResponse<String> get(String path) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
	}

	// No component scan: this package holds the auto-configuration itself.
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
