package dev.controllerobservability.dashboard;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.stability.StabilityLevel;

import static org.assertj.core.api.Assertions.assertThat;

class GrafanaDashboardTests {

	private static final OperationDescriptor BIND = new OperationDescriptor("bind", "karpenter.bind", "d", "i",
			List.<Duration>of(), List.of("provisioner"), "karpenter_bind_duration_seconds", null);

	private final String json = GrafanaDashboard.builder("Demo \"controller\"", "karpenter")
		.operations(List.of(BIND))
		.build()
		.toJson();

	@Test
	void writesOneMemberPerLineInInsertionOrderAndEndsWithANewline() {
		assertThat(this.json).startsWith("""
				{
				  "title": "Demo \\"controller\\"",
				  "uid": "karpenter-controller",
				  "tags": [
				    "controller-observability",
				    "karpenter"
				  ],
				  "schemaVersion": 39,
				  "timezone": "browser",
				  "refresh": "30s",
				  "time": {
				    "from": "now-1h",
				    "to": "now"
				  },
				""").endsWith("\n  ]\n}\n");
	}

	@Test
	void writesMapsWithoutOrderSortedAndEmptyCollectionsClosed() {
		assertThat(this.json).contains("""
				      "gridPos": {
				        "h": 1,
				        "w": 24,
				        "x": 0,
				        "y": 0
				      }
				""", """
				      "fieldConfig": {
				        "defaults": {
				          "unit": "ops"
				        },
				        "overrides": []
				      },
				""", """
				      "datasource": {
				        "type": "prometheus",
				        "uid": "${datasource}"
				      },
				""");
	}

	@Test
	void escapesTheQuotesOfPromQlSelectors() {
		assertThat(this.json).contains(
				"\"expr\": \"sum by (result) (rate(karpenter_bind_duration_seconds_count{job=~\\\"$job\\\", provisioner=~\\\"$provisioner\\\"}[5m]))\"");
	}

	@Test
	void countsResourcesNotReadyAndGenerationsNotReconciledWhenTheResourceStateMetricsAreDeclared() {
		List<ReferenceEntry> catalog = List.of(new ReferenceEntry("karpenter_resource_status_condition", "gauge", "h",
				List.of("kind", "namespace", "name", "type", "status"), StabilityLevel.ALPHA, null, null, List.of(),
				ReferenceEntry.Group.CONTROLLER));
		GrafanaDashboard dashboard = GrafanaDashboard.builder("Demo", "karpenter").catalog(catalog).build();
		assertThat(dashboard.toJson()).contains("\"title\": \"Resource state\"", "\"title\": \"resources not ready\"",
				"\"title\": \"generations not reconciled\"");
		assertThat(dashboard.expressions()).contains(
				"count by (kind) (max without (instance, pod) (karpenter_resource_status_condition{job=~\"$job\", type=\"Ready\", status=\"True\"}) == 0)",
				"count by (kind) (max without (instance, pod) (karpenter_resource_generation{job=~\"$job\"}) > max without (instance, pod) (karpenter_resource_observed_generation{job=~\"$job\"}))");
		assertThat(GrafanaDashboard.builder("Demo", "karpenter").build().toJson()).doesNotContain("Resource state");
	}

	@Test
	void showsTheNewestValueOfAPerObjectGaugeAndSumsAnyOtherGaugeOverReplicas() {
		List<ReferenceEntry> catalog = List.of(
				new ReferenceEntry("karpenter_provisioner_launched_nodes", "gauge", "h",
						List.of("kind", "namespace", "name"), StabilityLevel.ALPHA, null, null, List.of(),
						ReferenceEntry.Group.CONTROLLER),
				new ReferenceEntry("karpenter_pending_pods", "gauge", "h", List.of("provisioner"), StabilityLevel.ALPHA,
						null, null, List.of(), ReferenceEntry.Group.CONTROLLER));
		GrafanaDashboard dashboard = GrafanaDashboard.builder("Demo", "karpenter").catalog(catalog).build();
		assertThat(dashboard.expressions()).contains(
				"max by (kind, namespace, name) (karpenter_provisioner_launched_nodes{job=~\"$job\"})",
				"sum by (provisioner) (karpenter_pending_pods{job=~\"$job\"})");
	}

	@Test
	void drawsTheWebhooksSummedPerWebhookWhenTheControllerServesWebhooks() {
		GrafanaDashboard dashboard = GrafanaDashboard.builder("Demo", "karpenter").webhooks(true).build();
		assertThat(dashboard.toJson()).contains("\"title\": \"Webhooks\"", "\"title\": \"webhook p99 latency\"");
		assertThat(dashboard.expressions()).contains(
				"sum by (webhook, code) (rate(controller_runtime_webhook_requests_total{job=~\"$job\"}[5m]))",
				"sum by (webhook) (rate(controller_runtime_webhook_requests_total{job=~\"$job\", code!~\"2..\"}[5m])) / "
						+ "sum by (webhook) (rate(controller_runtime_webhook_requests_total{job=~\"$job\"}[5m]))",
				"histogram_quantile(0.99, sum by (webhook, le) "
						+ "(rate(controller_runtime_webhook_latency_seconds_bucket{job=~\"$job\"}[5m])))",
				"sum by (webhook) (controller_runtime_webhook_requests_in_flight{job=~\"$job\"})");
		assertThat(GrafanaDashboard.builder("Demo", "karpenter").build().toJson()).doesNotContain("Webhooks");
	}

	@Test
	void leavesOutTheWebhookPanelsOfDisabledFamilies() {
		GrafanaDashboard dashboard = GrafanaDashboard.builder("Demo", "karpenter")
			.webhooks(true)
			.disabledMetrics(List.of("controller_runtime_webhook_requests_in_flight",
					"controller_runtime_webhook_latency_seconds"))
			.build();
		assertThat(dashboard.toJson()).contains("\"title\": \"webhook requests by code\"",
				"\"title\": \"webhook panics\"");
		assertThat(dashboard.expressions()).noneMatch((expr) -> expr.contains("requests_in_flight"))
			.noneMatch((expr) -> expr.contains("latency_seconds"));
	}

	@Test
	void drawsTheLeadersOfEachElectionWhenTheReplicasElectOne() {
		GrafanaDashboard dashboard = GrafanaDashboard.builder("Demo", "karpenter").leaderElection(true).build();
		assertThat(dashboard.toJson()).contains("\"title\": \"Leader election\"", "\"title\": \"leaders\"");
		assertThat(dashboard.expressions()).containsExactly(
				"sum by (name) (leader_election_master_status{job=~\"$job\"})",
				"leader_election_master_status{job=~\"$job\"} == 1");
		assertThat(GrafanaDashboard.builder("Demo", "karpenter").build().toJson()).doesNotContain("Leader election");
		assertThat(GrafanaDashboard.builder("Demo", "karpenter")
			.leaderElection(true)
			.disabledMetrics(List.of("leader_election_master_status"))
			.build()
			.expressions()).isEmpty();
	}

}
