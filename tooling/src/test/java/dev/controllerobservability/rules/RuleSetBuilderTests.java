package dev.controllerobservability.rules;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.operations.OperationDescriptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link RuleSet.Builder}, the plain-Java way to the rules the starter generates: the
 * built-in rules of operations, the user's rules with their placeholders resolved, and
 * every setting and rule checked by the rules that check the starter's properties.
 */
class RuleSetBuilderTests {

	private static RuleSet.Builder builder() {
		return RuleSet.builder("karpenter",
				(operation) -> new OperationDescriptor(operation, "karpenter.cloudprovider." + operation, "d", "i",
						List.of(), List.of("provisioner"), "karpenter_cloudprovider_" + operation + "_duration_seconds",
						null));
	}

	@Test
	void buildsTheBuiltInRulesOfOperationsAndResolvesPlaceholders() {
		RuleSet rules = builder().window("10m")
			.errorRatioAlert("launch", 0.2, "10m", AlertSeverity.WARNING)
			.latencyAlert("launch", 0.99, Duration.ofSeconds(1), "10m", AlertSeverity.CRITICAL)
			.stuckAlert("launch", "15m", AlertSeverity.INFO)
			.alert(new AlertRule("KarpenterLaunchesStopped", "rate(${operation.launch.duration}_count[1h]) == 0", "1h",
					"warning", "No ${namespace} launch for an hour", null, null, null, null))
			.build();
		assertThat(rules.group()).isEqualTo("karpenter.rules");
		assertThat(rules.recordingRules()).extracting(RecordingRule::name)
			.containsExactly("provisioner:karpenter_cloudprovider_launch_duration_seconds_count:rate10m",
					"provisioner_result:karpenter_cloudprovider_launch_duration_seconds_count:rate10m",
					"provisioner_le:karpenter_cloudprovider_launch_duration_seconds_bucket:rate10m");
		assertThat(rules.alerts()).extracting(AlertRule::name)
			.containsExactly("KarpenterLaunchErrorRatioHigh", "KarpenterLaunchLatencyHigh",
					"KarpenterLaunchStuckInFlight", "KarpenterLaunchesStopped");
		assertThat(rules.alerts()).extracting(AlertRule::severity)
			.containsExactly("warning", "critical", "info", "warning");
		assertThat(rules.alerts().get(1).expr()).isEqualTo("histogram_quantile(0.99, "
				+ "provisioner_le:karpenter_cloudprovider_launch_duration_seconds_bucket:rate10m) > 1.0");
		assertThat(rules.alerts().get(3).expr())
			.isEqualTo("rate(karpenter_cloudprovider_launch_duration_seconds_count[1h]) == 0");
		assertThat(rules.alerts().get(3).summary()).isEqualTo("No karpenter launch for an hour");
	}

	static Stream<Arguments> badSettings() {
		return Stream.of(
				bad("rules.window", "RuleSet.Builder.window(…)", "soon", (b) -> b.window("soon"),
						"the rate window is a Prometheus duration"),
				bad("rules.group", "RuleSet.Builder.group(…)", " ", (b) -> b.group(" "),
						"a rule group needs a name; promtool and Prometheus reject a group without one"),
				bad("rules.operations.9lives", "RuleSet.Builder.errorRatioAlert/latencyAlert/stuckAlert(\"9lives\", …)",
						"9lives", (b) -> b.stuckAlert("9lives", "15m", AlertSeverity.WARNING),
						"an operation name must turn into a snake_case metric name part"),
				bad("rules.operations.launch.error-ratio.threshold",
						"RuleSet.Builder.errorRatioAlert(\"launch\", …) threshold", 5.0,
						(b) -> b.errorRatioAlert("launch", 5, "10m", AlertSeverity.WARNING),
						"the error ratio threshold is a share of calls"),
				bad("rules.operations.launch.error-ratio.for", "RuleSet.Builder.errorRatioAlert(\"launch\", …) for",
						"ten minutes", (b) -> b.errorRatioAlert("launch", 0.05, "ten minutes", AlertSeverity.WARNING),
						"'for' is a Prometheus duration"),
				bad("rules.operations.launch.error-ratio.severity",
						"RuleSet.Builder.errorRatioAlert(\"launch\", …) severity", "",
						(b) -> b.errorRatioAlert("launch", 0.05, "10m", null),
						"every alert needs a severity, which routes it"),
				bad("rules.operations.bind.latency.quantile", "RuleSet.Builder.latencyAlert(\"bind\", …) quantile", 1.0,
						(b) -> b.latencyAlert("bind", 1, Duration.ofSeconds(1), "10m", AlertSeverity.WARNING),
						"a quantile lies between 0 and 1"),
				bad("rules.operations.bind.latency.threshold", "RuleSet.Builder.latencyAlert(\"bind\", …) threshold",
						Duration.ZERO, (b) -> b.latencyAlert("bind", 0.99, Duration.ZERO, "10m", AlertSeverity.WARNING),
						"the latency threshold must be positive"),
				bad("rules.operations.bind.stuck.for", "RuleSet.Builder.stuckAlert(\"bind\", …) for", "15",
						(b) -> b.stuckAlert("bind", "15", AlertSeverity.WARNING), "'for' is a Prometheus duration"));
	}

	private static Arguments bad(String property, String builderCall, Object value,
			UnaryOperator<RuleSet.Builder> builder, String reason) {
		return Arguments.of(property, builderCall, value, builder, reason);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badSettings")
	void buildRefusesABadSettingNamingIt(String property, String builderCall, Object value,
			UnaryOperator<RuleSet.Builder> builder, String reason) {
		RuleSet.Builder configured = builder.apply(builder());
		InvalidSettingException refused = assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(configured::build)
			.actual();
		assertThat(refused.getProperty()).isEqualTo(property);
		assertThat(refused.getBuilderCall()).isEqualTo(builderCall);
		assertThat(refused.getValue()).isEqualTo(value);
		assertThat(refused.getReason()).isEqualTo(reason);
		assertThat(refused.getMessage()).startsWith(builderCall + " = ");
	}

	@Test
	void leavesOutTheBuiltInAlertsThatReadADisabledMetric() {
		UnaryOperator<RuleSet.Builder> all = (builder) -> builder.webhookErrorsAlert("15m", AlertSeverity.WARNING)
			.webhookLatencyAlert("15m", AlertSeverity.WARNING)
			.webhookPanicsAlert("0m", AlertSeverity.WARNING)
			.leaderElectionNoLeaderAlert("5m", AlertSeverity.WARNING)
			.reconcilingWithoutLeaseAlert("5m", AlertSeverity.WARNING);
		assertThat(all.apply(builder()).build().alerts()).extracting(AlertRule::name)
			.containsExactly("WebhookErrorRatioHigh", "WebhookLatencyHigh", "WebhookPanics", "LeaderElectionNoLeader",
					"LeaderElectionReconcilingWithoutLease");
		RuleSet rules = all.apply(builder())
			.disabledMetrics(List.of("controller_runtime_webhook_latency_seconds",
					"controller_runtime_conversion_webhook_panics_total", "controller_runtime_reconcile_total"))
			.build();
		assertThat(rules.alerts()).extracting(AlertRule::name)
			.containsExactly("WebhookErrorRatioHigh", "LeaderElectionNoLeader");
	}

	@Test
	void disabledMetricsAreCheckedByTheCoresRuleNamingTheBuilderCall() {
		List<String> withNull = java.util.Arrays.asList("controller_runtime_reconcile_total", null);
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().disabledMetrics(withNull).build())
			.satisfies((refused) -> {
				assertThat(refused.getProperty()).isEqualTo("disabled-metrics[1]");
				assertThat(refused.getMessage())
					.startsWith("RuleSet.Builder.disabledMetrics(…) element 1 = null: a Prometheus metric name");
			});
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().disabledMetrics(null).build())
			.withMessageStartingWith("RuleSet.Builder.disabledMetrics(…) = null: the names must not be null")
			.withMessageEndingWith("Pass List.of() for none");
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> builder().disabledMetrics(List.of("bad name!")).build())
			.withMessageStartingWith("RuleSet.Builder.disabledMetrics(…) element 0 = \"bad name!\"");
	}

	@Test
	void buildRefusesAnAlertPrometheusWouldRejectNamingIt() {
		RuleSet.Builder builder = builder()
			.alert(new AlertRule("LaunchErrors", "sum(up", "5m", "warning", "Launches fail", null, null, null, null));
		assertThatExceptionOfType(InvalidRuleException.class).isThrownBy(builder::build).satisfies((refused) -> {
			assertThat(refused.getRule()).isEqualTo("LaunchErrors");
			assertThat(refused.getField()).isEqualTo("expr");
			assertThat(refused.getReason()).isEqualTo("the PromQL is not valid: '(' is not closed");
		});
	}

	@Test
	void buildRefusesAnUnknownPlaceholderNamingTheRule() {
		RuleSet.Builder builder = builder()
			.recordingRule(new RecordingRule("job:karpenter_x_total:rate5m", "rate(${nmespace}_x_total[5m])", null));
		assertThatExceptionOfType(InvalidRuleException.class).isThrownBy(builder::build).satisfies((refused) -> {
			assertThat(refused.getRule()).isEqualTo("job:karpenter_x_total:rate5m");
			assertThat(refused.getValue()).isEqualTo("${nmespace}");
			assertThat(refused.getReason()).isEqualTo("the placeholder is unknown");
		});
	}

	@Test
	void prometheusRuleRefusesALabelTheApiServerWouldReject() {
		RuleSet rules = builder().build();
		InvalidSettingException refused = assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> rules.toPrometheusRule("karpenter-rules", Map.of("bad key!", "x")))
			.actual();
		assertThat(refused.getProperty()).isEqualTo("rules.prometheus-rule-labels[bad key!]");
		assertThat(refused.getBuilderCall()).isEqualTo("RuleSet.toPrometheusRule(…) labels key \"bad key!\"");
		assertThat(refused.getReason()).startsWith("'bad key!' is not a Kubernetes label key")
			.endsWith("so the API server rejects the PrometheusRule");
	}

}
