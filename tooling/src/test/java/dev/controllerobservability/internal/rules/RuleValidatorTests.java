package dev.controllerobservability.internal.rules;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.InvalidRuleException;
import dev.controllerobservability.rules.RecordingRule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class RuleValidatorTests {

	@Test
	void acceptsAWellFormedAlertAndRecordingRule() {
		assertThatNoException().isThrownBy(() -> RuleValidator.validate(alert("KarpenterLaunchErrorsHigh",
				"sum by (provisioner) (rate(karpenter_x_total[5m])) > 1", "warning", "Launches fail")));
		assertThatNoException()
			.isThrownBy(() -> RuleValidator.validate(new RecordingRule("provisioner:karpenter_x_total:rate5m",
					"sum by (provisioner) (rate(karpenter_x_total[5m]))", null)));
	}

	@Test
	void rejectsAnAlertNameThatIsNotPascalCase() {
		assertInvalid(alert("karpenter-launch-errors", "up == 0", "warning", "s"), null, "PascalCase",
				"'KarpenterLaunchErrors'");
	}

	@Test
	void rejectsAMissingOrUnknownSeverity() {
		assertInvalid(alert("LaunchErrors", "up == 0", null, "s"), "severity", "every alert needs a severity",
				"critical, warning or info");
		assertInvalid(alert("LaunchErrors", "up == 0", "page", "s"), "severity", "not one of [critical, info, warning]",
				"critical, warning or info");
	}

	@Test
	void rejectsAMissingSummary() {
		assertInvalid(alert("LaunchErrors", "up == 0", "warning", " "), "summary", "every alert needs a summary",
				"Write one line");
	}

	@Test
	void rejectsBadPromQl() {
		assertInvalid(alert("LaunchErrors", "sum(rate(x[5m])", "warning", "s"), "expr", "'(' is not closed",
				"promtool check rules");
		assertInvalid(alert("LaunchErrors", "rate(x[5 minutes])", "warning", "s"), "expr", "is not a range",
				"promtool check rules");
		assertInvalid(alert("LaunchErrors", "x{a=\"b}", "warning", "s"), "expr", "is not closed", "Fix the expression");
	}

	@Test
	void rejectsABadForDuration() {
		AlertRule alert = new AlertRule("LaunchErrors", "up == 0", "ten minutes", "warning", "s", null, null, null,
				null);
		assertInvalid(alert, "for", "Prometheus duration", "5m or 1h");
	}

	@Test
	void rejectsRecordingRuleNamesNotOfTheLevelMetricOperationsForm() {
		assertInvalidRecording(new RecordingRule("karpenter_x_rate", "rate(karpenter_x_total[5m])", null), null,
				"level:metric:operations (a map key with ':' needs brackets", "Name it like");
		assertInvalidRecording(new RecordingRule("job:karpenter_y_total:rate5m", "rate(karpenter_x_total[5m])", null),
				"expr", "does not read it", "Name the rule after the metric");
		assertInvalidRecording(new RecordingRule("job:karpenter_x_total:rate1h", "rate(karpenter_x_total[5m])", null),
				"expr", "does not apply rate over [1h]", "rate5m for rate(...[5m])");
	}

	@Test
	void extractsTheMetricNamesAnExpressionReads() {
		assertThat(PromQl.metricNames("sum by (provisioner, le) (rate(karpenter_x_bucket{job=~\"a|b\", le!=\"x\"}[5m]))"
				+ " / ignoring (result) job:karpenter_x_count:rate5m > 0.5 and on (provisioner) up offset 5m"))
			.containsExactly("karpenter_x_bucket", "job:karpenter_x_count:rate5m", "up");
		assertThat(PromQl.metricNames("histogram_quantile(0.99, sum(rate(x_bucket[1m])) by (le)) > 1e3"))
			.containsExactly("x_bucket");
	}

	private static AlertRule alert(String name, String expr, String severity, String summary) {
		return new AlertRule(name, expr, "5m", severity, summary, null, null, Map.of(), Map.of());
	}

	private static void assertInvalid(AlertRule alert, String field, String reason, String action) {
		assertThatExceptionOfType(InvalidRuleException.class).isThrownBy(() -> RuleValidator.validate(alert))
			.satisfies((ex) -> {
				assertThat(ex.getField()).isEqualTo(field);
				assertThat(ex.getReason()).contains(reason);
				assertThat(ex.getAction()).contains(action);
			});
	}

	private static void assertInvalidRecording(RecordingRule rule, String field, String reason, String action) {
		assertThatExceptionOfType(InvalidRuleException.class).isThrownBy(() -> RuleValidator.validate(rule))
			.satisfies((ex) -> {
				assertThat(ex.getField()).isEqualTo(field);
				assertThat(ex.getReason()).contains(reason);
				assertThat(ex.getAction()).contains(action);
			});
	}

}
