package dev.controllerobservability.internal.rules;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.AlertSeverity;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;

import static org.assertj.core.api.Assertions.assertThat;

class OperationRulesTests {

	private static final OperationDescriptor LAUNCH = new OperationDescriptor("launch",
			"karpenter.cloudprovider.launch", "d", "i", List.<Duration>of(), List.of("provisioner"),
			"karpenter_cloudprovider_launch_duration_seconds", null);

	@Test
	void generatesRecordingRulesAndAlertsForTheSwitchedOnRules() {
		List<RecordingRule> recording = new ArrayList<>();
		List<AlertRule> alerts = new ArrayList<>();
		OperationRules.add("karpenter", LAUNCH,
				new OperationRuleSettings("5m",
						new OperationRuleSettings.ErrorRatio("launch", 0.05, "10m", AlertSeverity.WARNING),
						new OperationRuleSettings.Latency("launch", 0.99, Duration.ofSeconds(30), "10m",
								AlertSeverity.CRITICAL),
						null),
				recording, alerts);
		assertThat(recording).extracting(RecordingRule::name)
			.containsExactly("provisioner:karpenter_cloudprovider_launch_duration_seconds_count:rate5m",
					"provisioner_result:karpenter_cloudprovider_launch_duration_seconds_count:rate5m",
					"provisioner_le:karpenter_cloudprovider_launch_duration_seconds_bucket:rate5m");
		assertThat(recording.get(2).expr())
			.isEqualTo("sum by (provisioner, le) (rate(karpenter_cloudprovider_launch_duration_seconds_bucket[5m]))");
		assertThat(alerts).extracting(AlertRule::name)
			.containsExactly("KarpenterLaunchErrorRatioHigh", "KarpenterLaunchLatencyHigh");
		assertThat(alerts.get(0).expr()).isEqualTo(
				"provisioner_result:karpenter_cloudprovider_launch_duration_seconds_count:rate5m{result=\"error\"} "
						+ "/ ignoring (result) sum by (provisioner) (provisioner_result:"
						+ "karpenter_cloudprovider_launch_duration_seconds_count:rate5m{result!=\"cancelled\"}) > 0.05");
		assertThat(alerts.get(0).summary())
			.isEqualTo("More than 5% of launch operations fail for provisioner {{ $labels.provisioner }}");
		assertThat(alerts.get(1).expr()).isEqualTo("histogram_quantile(0.99, "
				+ "provisioner_le:karpenter_cloudprovider_launch_duration_seconds_bucket:rate5m) > 30.0");
		assertThat(alerts.get(1).severity()).isEqualTo("critical");
		recording.forEach(RuleValidator::validate);
		alerts.forEach(RuleValidator::validate);
	}

	@Test
	void rendersARulesFileAndAPrometheusRule() {
		RuleSet rules = new RuleSet("karpenter.rules",
				List.of(new RecordingRule("job:karpenter_x_total:rate5m", "sum by (job) (rate(karpenter_x_total[5m]))",
						null)),
				List.of(new AlertRule("KarpenterXHigh", "job:karpenter_x_total:rate5m > 1", "5m", "info", "X is high",
						null, "docs/runbooks.md#x", java.util.Map.of("team", "nodes"), null)));
		assertThat(rules.toRulesFile()).isEqualTo("""
				groups:
				  - name: karpenter.rules
				    rules:
				      - record: job:karpenter_x_total:rate5m
				        expr: sum by (job) (rate(karpenter_x_total[5m]))
				      - alert: KarpenterXHigh
				        expr: job:karpenter_x_total:rate5m > 1
				        for: 5m
				        labels:
				          severity: info
				          team: nodes
				        annotations:
				          runbook_url: docs/runbooks.md#x
				          summary: X is high
				""");
		assertThat(rules.toPrometheusRule("demo-rules", java.util.Map.of("release", "prometheus"))).startsWith("""
				apiVersion: monitoring.coreos.com/v1
				kind: PrometheusRule
				metadata:
				  name: demo-rules
				  labels:
				    release: prometheus
				spec:
				  groups:
				    - name: karpenter.rules
				""");
	}

}
