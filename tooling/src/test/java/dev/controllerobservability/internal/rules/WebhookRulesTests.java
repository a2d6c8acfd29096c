package dev.controllerobservability.internal.rules;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.AlertSeverity;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.test.Promtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The built-in webhook alerts sum each webhook over the replicas and fire, in promtool's
 * rule tests, on a high error ratio, a high p99 latency and panics, and not otherwise;
 * promtool accepts the rules file.
 */
class WebhookRulesTests {

	private final RuleSet ruleSet = RuleSet.builder("shop", (operation) -> null)
		.webhookErrorsAlert("10m", AlertSeverity.WARNING)
		.webhookLatencyAlert("10m", AlertSeverity.WARNING)
		.webhookPanicsAlert("0m", AlertSeverity.CRITICAL)
		.build();

	@TempDir
	private Path directory;

	@Test
	void rendersTheThreeAlertsSummedPerWebhook() {
		assertThat(this.ruleSet.alerts()).extracting(AlertRule::name, AlertRule::expr)
			.containsExactly(
					org.assertj.core.groups.Tuple.tuple("WebhookErrorRatioHigh",
							"sum by (webhook) (rate(controller_runtime_webhook_requests_total{code!~\"2..\"}[5m])) / "
									+ "sum by (webhook) (rate(controller_runtime_webhook_requests_total[5m])) > 0.05"),
					org.assertj.core.groups.Tuple.tuple("WebhookLatencyHigh",
							"histogram_quantile(0.99, sum by (webhook, le) "
									+ "(rate(controller_runtime_webhook_latency_seconds_bucket[5m]))) > 1"),
					org.assertj.core.groups.Tuple.tuple("WebhookPanics",
							"(sum(increase(controller_runtime_webhook_panics_total[5m])) or vector(0)) + "
									+ "(sum(increase(controller_runtime_conversion_webhook_panics_total[5m])) or vector(0)) > 0"));
		assertThat(this.ruleSet.toPrometheusRule("shop-rules", Map.of())).contains("alert: WebhookErrorRatioHigh",
				"alert: WebhookLatencyHigh", "alert: WebhookPanics");
	}

	@Test
	void leavesThemOutUnlessSwitchedOn() {
		assertThat(RuleSet.builder("shop", (operation) -> null).build().alerts()).isEmpty();
	}

	@Test
	void refusesAnAlertWithoutSeverity() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RuleSet.builder("shop", (operation) -> null).webhookPanicsAlert("0m", null).build())
			.withMessageContaining("RuleSet.Builder.webhookPanicsAlert(…) severity");
	}

	@Test
	void promtoolAcceptsTheRulesAndTheyFireAsSummedOverReplicas() throws Exception {
		Path rules = Files.writeString(this.directory.resolve("rules.yaml"), this.ruleSet.toRulesFile());
		assertThat(Promtool.checkRules(rules)).contains("SUCCESS");
		Path test = Files.writeString(this.directory.resolve("test.yaml"),
				"""
						rule_files: [rules.yaml]
						evaluation_interval: 1m
						tests:
						  - interval: 1m
						    input_series:
						      # /validate: replica b alone answers 1 in 6 with 500, but over both replicas 2 in 102.
						      - series: 'controller_runtime_webhook_requests_total{pod="a",webhook="/validate",code="200"}'
						        values: '0+90x40'
						      - series: 'controller_runtime_webhook_requests_total{pod="b",webhook="/validate",code="200"}'
						        values: '0+10x40'
						      - series: 'controller_runtime_webhook_requests_total{pod="b",webhook="/validate",code="500"}'
						        values: '0+2x40'
						      # /convert: 1 in 6 with 500 on its only replica.
						      - series: 'controller_runtime_webhook_requests_total{pod="a",webhook="/convert",code="200"}'
						        values: '0+10x40'
						      - series: 'controller_runtime_webhook_requests_total{pod="a",webhook="/convert",code="500"}'
						        values: '0+2x40'
						      # /validate is fast; /convert takes between 1s and 10s for 9 requests in 10.
						      - series: 'controller_runtime_webhook_latency_seconds_bucket{pod="a",webhook="/validate",le="0.1"}'
						        values: '0+90x40'
						      - series: 'controller_runtime_webhook_latency_seconds_bucket{pod="a",webhook="/validate",le="+Inf"}'
						        values: '0+90x40'
						      - series: 'controller_runtime_webhook_latency_seconds_bucket{pod="a",webhook="/convert",le="1.0"}'
						        values: '0+1x40'
						      - series: 'controller_runtime_webhook_latency_seconds_bucket{pod="a",webhook="/convert",le="10.0"}'
						        values: '0+10x40'
						      - series: 'controller_runtime_webhook_latency_seconds_bucket{pod="a",webhook="/convert",le="+Inf"}'
						        values: '0+10x40'
						      # Only conversion webhooks exist: no admission panic counter at all.
						      - series: 'controller_runtime_conversion_webhook_panics_total{pod="a"}'
						        values: '0x20 1x20'
						    alert_rule_test:
						      - eval_time: 8m
						        alertname: WebhookErrorRatioHigh
						        exp_alerts: []
						      - eval_time: 20m
						        alertname: WebhookErrorRatioHigh
						        exp_alerts:
						          - exp_labels: {severity: warning, webhook: /convert}
						            exp_annotations:
						              summary: More than 5% of requests to webhook /convert are answered with an error code
						              description: 16.67% of its requests got a non-2xx answer over the last 5m.
						      - eval_time: 20m
						        alertname: WebhookLatencyHigh
						        exp_alerts:
						          - exp_labels: {severity: warning, webhook: /convert}
						            exp_annotations:
						              summary: p99 latency of webhook /convert is above 1s
						              description: "The 99th percentile of its latency is 9.9s; the API server's default webhook timeout is 10s."
						      - eval_time: 19m
						        alertname: WebhookPanics
						        exp_alerts: []
						      - eval_time: 22m
						        alertname: WebhookPanics
						        exp_alerts:
						          - exp_labels: {severity: critical}
						            exp_annotations:
						              summary: A webhook handler threw
						              description: 1 admission and conversion webhook panics over the last 5m.
						      - eval_time: 35m
						        alertname: WebhookPanics
						        exp_alerts: []
						""");
		assertThat(Promtool.testRules(test)).contains("SUCCESS");
	}

}
