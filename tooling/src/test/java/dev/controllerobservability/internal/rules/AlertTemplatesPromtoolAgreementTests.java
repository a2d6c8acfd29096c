package dev.controllerobservability.internal.rules;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.InvalidRuleException;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.test.Promtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The start-up checks of alert templates and label names agree with the real
 * {@code promtool check rules}: what the starter refuses, promtool rejects, and what it
 * lets through, promtool accepts.
 */
class AlertTemplatesPromtoolAgreementTests {

	@TempDir
	Path directory;

	static List<Object[]> summaries() {
		return List.of(new Object[] { "Launches of {{ $labels.provisioner }} fail", true },
				new Object[] { "{{ $value | humanize }} nodes an hour", true },
				new Object[] { "{{ if gt $value 1.0 }}many{{ else }}few{{ end }}", true },
				new Object[] { "{{ range $i, $l := $labels }}{{ $i }}={{ $l }} {{ end }}", true },
				new Object[] { "{{/* a comment */}}done", true }, new Object[] { "{{- $labels.x -}}", true },
				new Object[] { "{{ printf \"%s}}\" $labels.x }}", true }, new Object[] { "{{ $labels.x ", false },
				new Object[] { "{{ }}", false }, new Object[] { "{{ $label.provisioner }}", false },
				new Object[] { "{{ if true }}open", false }, new Object[] { "{{ end }}", false },
				new Object[] { "{{ printf \"%s $labels.x }}", false }, new Object[] { "{{ (len $labels }}", false });
	}

	@ParameterizedTest
	@MethodSource("summaries")
	void summaryIsRefusedExactlyWhenPromtoolRejectsIt(String summary, boolean valid) throws Exception {
		AlertRule alert = new AlertRule("LaunchErrors", "up == 0", null, "warning", summary, null, null, null, null);
		assertPromtoolAgrees(alert, valid);
	}

	static List<Object[]> labels() {
		return List.of(new Object[] { "team_name", true }, new Object[] { "Team", true },
				new Object[] { "team-name", false }, new Object[] { "9lives", false },
				new Object[] { "bad key!", false });
	}

	@ParameterizedTest
	@MethodSource("labels")
	void labelKeyIsRefusedExactlyWhenPromtoolRejectsIt(String key, boolean valid) throws Exception {
		AlertRule alert = new AlertRule("LaunchErrors", "up == 0", null, "warning", "Launches fail", null, null,
				Map.of(key, "nodes"), Map.of(key, "x"));
		assertPromtoolAgrees(alert, valid);
	}

	@Test
	void promtoolRejectsAGroupWithoutName() throws Exception {
		Path rules = Files.writeString(this.directory.resolve("rules.yaml"), new RuleSet("", List.of(), List
			.of(new AlertRule("LaunchErrors", "up == 0", null, "warning", "Launches fail", null, null, null, null)))
			.toRulesFile());
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> Promtool.checkRules(rules))
			.withMessageContaining("name");
	}

	private void assertPromtoolAgrees(AlertRule alert, boolean valid) throws Exception {
		Path rules = Files.writeString(this.directory.resolve("rules.yaml"),
				new RuleSet("karpenter.rules", List.of(), List.of(alert)).toRulesFile());
		if (valid) {
			assertThatCode(() -> RuleValidator.validate(alert)).doesNotThrowAnyException();
			assertThat(Promtool.checkRules(rules)).contains("SUCCESS");
		}
		else {
			assertThatExceptionOfType(InvalidRuleException.class).isThrownBy(() -> RuleValidator.validate(alert));
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> Promtool.checkRules(rules));
		}
	}

}
