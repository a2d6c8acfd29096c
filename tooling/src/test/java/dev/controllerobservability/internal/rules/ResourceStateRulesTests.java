package dev.controllerobservability.internal.rules;

import java.nio.file.Files;
import java.nio.file.Path;

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
 * The built-in resource state alerts fire, in promtool's rule tests, when a resource
 * stays not ready or its generation stays unreconciled for the threshold, and not before;
 * both renderings carry them.
 */
class ResourceStateRulesTests {

	private final RuleSet ruleSet = RuleSet.builder("shop", (operation) -> null)
		.resourceNotReadyAlert("15m", AlertSeverity.WARNING)
		.resourceGenerationNotReconciledAlert("15m", AlertSeverity.WARNING)
		.build();

	@TempDir
	private Path directory;

	@Test
	void rendersBothAlertsOnTheResourceStateMetrics() {
		assertThat(this.ruleSet.alerts()).extracting(AlertRule::name, AlertRule::expr, AlertRule::forDuration)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("ResourceNotReady",
					"max without (instance, pod) (shop_resource_status_condition{type=\"Ready\", status=\"True\"}) == 0",
					"15m"),
					org.assertj.core.groups.Tuple.tuple("ResourceGenerationNotReconciled",
							"max without (instance, pod) (shop_resource_generation) > max without (instance, pod) (shop_resource_observed_generation)",
							"15m"));
		assertThat(this.ruleSet.toRulesFile()).contains("alert: ResourceNotReady",
				"alert: ResourceGenerationNotReconciled");
		assertThat(this.ruleSet.toPrometheusRule("shop-rules", java.util.Map.of())).contains("alert: ResourceNotReady",
				"alert: ResourceGenerationNotReconciled");
	}

	@Test
	void leavesThemOutUnlessSwitchedOn() {
		assertThat(RuleSet.builder("shop", (operation) -> null).build().alerts()).isEmpty();
	}

	@Test
	void refusesAForThatIsNoPrometheusDuration() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RuleSet.builder("shop", (operation) -> null)
				.resourceNotReadyAlert("15 minutes", AlertSeverity.WARNING)
				.build())
			.withMessageContaining("RuleSet.Builder.resourceNotReadyAlert(…) for = \"15 minutes\"");
	}

	@Test
	void alertsFireAfterTheThresholdInPromtool() throws Exception {
		Files.writeString(this.directory.resolve("rules.yaml"), this.ruleSet.toRulesFile());
		Path test = Files.writeString(this.directory.resolve("test.yaml"),
				"""
						rule_files: [rules.yaml]
						evaluation_interval: 1m
						tests:
						  - interval: 1m
						    input_series:
						      - series: 'shop_resource_status_condition{kind="Gadget",namespace="prod",name="a",type="Ready",status="True"}'
						        values: '0x20 1x20'
						      - series: 'shop_resource_status_condition{kind="Gadget",namespace="prod",name="b",type="Ready",status="True"}'
						        values: '1x40'
						      - series: 'shop_resource_generation{kind="Gadget",namespace="prod",name="a"}'
						        values: '2x40'
						      - series: 'shop_resource_observed_generation{kind="Gadget",namespace="prod",name="a"}'
						        values: '1x20 2x20'
						      - series: 'shop_resource_generation{kind="Gadget",namespace="prod",name="b"}'
						        values: '3x40'
						      - series: 'shop_resource_observed_generation{kind="Gadget",namespace="prod",name="b"}'
						        values: '3x40'
						    alert_rule_test:
						      - eval_time: 10m
						        alertname: ResourceNotReady
						        exp_alerts: []
						      - eval_time: 16m
						        alertname: ResourceNotReady
						        exp_alerts:
						          - exp_labels: {severity: warning, kind: Gadget, namespace: prod, name: a, type: Ready, status: "True"}
						            exp_annotations:
						              summary: Gadget prod/a is not ready
						              description: Its Ready condition has not been True for 15m.
						      - eval_time: 30m
						        alertname: ResourceNotReady
						        exp_alerts: []
						      - eval_time: 10m
						        alertname: ResourceGenerationNotReconciled
						        exp_alerts: []
						      - eval_time: 16m
						        alertname: ResourceGenerationNotReconciled
						        exp_alerts:
						          - exp_labels: {severity: warning, kind: Gadget, namespace: prod, name: a}
						            exp_annotations:
						              summary: Gadget prod/a has a generation its controller has not reconciled
						              description: 'Generation 2 above the observed one for 15m: the controller has not caught up with the latest change.'
						      - eval_time: 30m
						        alertname: ResourceGenerationNotReconciled
						        exp_alerts: []
						""");
		assertThat(Promtool.testRules(test)).contains("SUCCESS");
	}

}
