package dev.controllerobservability.internal.rules;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every metric a rule reads must exist: declared, a recording rule, or exposed.
 */
class RuleReadsTests {

	private static final ExposedFamily BIND = new ExposedFamily("karpenter_bind_duration_seconds", "histogram",
			"Bind latency.", List.of(), List.of(1.0));

	@Test
	void knowsTheSamplesOfDeclaredHistogramsAndTheRecordingRules() {
		RuleSet rules = new RuleSet(
				"karpenter.rules", List.of(new RecordingRule("karpenter:bind:rate5m",
						"rate(karpenter_bind_duration_seconds_count[5m])", Map.of())),
				List.of(alert("karpenter:bind:rate5m > 1")));
		RuleReads reads = new RuleReads(rules, List.of(BIND), List.of(), SettingNames.PROPERTIES);
		assertThat(reads.allKnown()).isTrue();
		reads.check();
	}

	@Test
	void needsTheScrapeForAMetricNothingDeclaresAndFindsItThere() {
		RuleSet rules = new RuleSet("karpenter.rules", List.of(), List.of(alert("karpenter_late_pods > 3")));
		RuleReads reads = new RuleReads(rules, List.of(BIND), List.of(), SettingNames.PROPERTIES);
		assertThat(reads.allKnown()).isFalse();
		reads.add(List.of(new ExposedFamily("karpenter_late_pods", "gauge", "Late pods.", List.of(), List.of())));
		assertThat(reads.allKnown()).isTrue();
		reads.check();
	}

	@Test
	void refusesAnUnknownMetricNamingTheRuleAndTheClosestName() {
		RuleSet rules = new RuleSet("karpenter.rules", List.of(),
				List.of(alert("rate(karpenter_bind_duration_second_count[5m]) > 1")));
		RuleReads reads = new RuleReads(rules, List.of(BIND), List.of(), SettingNames.PROPERTIES);
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(reads::check).satisfies((ex) -> {
			assertThat(ex.getProperty()).isEqualTo("alerts.KarpenterBindSlow.expr");
			assertThat(ex.getBuilderCall()).isEqualTo("RuleSet.Builder.alert(KarpenterBindSlow) expr");
			assertThat(ex.getReason()).isEqualTo("the expression reads karpenter_bind_duration_second_count, "
					+ "which the application neither exposes nor declares");
			assertThat(ex.getAction()).startsWith("Did you mean karpenter_bind_duration_seconds_count? ")
				.endsWith("list the operation under controller.observability.operations.definitions");
		});
	}

	@Test
	void refusesASampleOfADisabledHistogramNamingTheDisabledEntry() {
		RuleSet rules = new RuleSet("karpenter.rules", List.of(),
				List.of(alert("rate(karpenter_old_seconds_bucket[5m]) > 1")));
		RuleReads reads = new RuleReads(rules, List.of(BIND), List.of("karpenter_x", "karpenter_old_seconds"),
				SettingNames.BUILDER);
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(reads::check).satisfies((ex) -> {
			assertThat(ex.getReason()).isEqualTo("the expression reads karpenter_old_seconds_bucket, which "
					+ "ControllerObservability.Builder.disabledMetrics(…)[1] (karpenter_old_seconds) turns off, so "
					+ "the rule could never see it");
			assertThat(ex.getAction()).isEqualTo("Remove karpenter_old_seconds from "
					+ "ControllerObservability.Builder.disabledMetrics(…), or stop the rule reading it");
		});
	}

	private static AlertRule alert(String expr) {
		return new AlertRule("KarpenterBindSlow", expr, "5m", "warning", "Binds are slow", null, null, null, null);
	}

}
