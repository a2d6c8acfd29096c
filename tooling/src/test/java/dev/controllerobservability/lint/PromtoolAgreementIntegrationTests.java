package dev.controllerobservability.lint;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.test.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real {@code promtool check metrics} and this linter read a deliberately bad scrape
 * and report exactly the same problems, duplicates and order included.
 */
class PromtoolAgreementIntegrationTests {

	@Test
	void reportsTheSameProblemsAsPromtool() throws Exception {
		String scrape;
		try (var input = getClass().getResourceAsStream("/lint/bad-metrics.prom")) {
			scrape = new String(input.readAllBytes(), StandardCharsets.UTF_8);
		}
		List<String> promtool = Promtool.checkMetrics(scrape);
		List<String> ours = new MetricsLinter("karpenter", Set.of(), List.of())
			.promtoolFindings(Exposition.parse(scrape))
			.stream()
			.map(LintFinding::toString)
			.toList();
		assertThat(promtool).hasSizeGreaterThan(20);
		assertThat(ours).containsExactlyElementsOf(promtool);
	}

}
