package dev.controllerobservability.dashboard;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.operations.OperationDescriptor;

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

}
