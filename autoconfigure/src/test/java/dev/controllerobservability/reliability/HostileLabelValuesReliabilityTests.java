package dev.controllerobservability.reliability;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.test.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Quotes, backslashes, newlines, NUL, broken UTF-16 and 100 KB strings as label values:
 * the scrape stays valid for this project's parser and for promtool, and values are cut
 * to the configured length.
 */
class HostileLabelValuesReliabilityTests {

	private static final int MAX_LENGTH = 64;

	private static final List<String> HOSTILE = List.of("quote\"d", "back\\slash", "new\nline", "nul\u0000byte",
			"lone\uD800surrogate", "reversed\uDC00\uD800pair", "x".repeat(100_000), "\"}\n# TYPE evil counter\n",
			"emoji \uD83D\uDE80 ok", "tab\tand\rreturn");

	@Test
	void keepsTheScrapeValidAndCutsValues() throws Exception {
		ReliabilityFixture fixture = new ReliabilityFixture(200, MAX_LENGTH);
		for (String value : HOSTILE) {
			fixture.operations.observe("bind", Tags.of("provisioner", value), () -> {
			});
			fixture.metrics.counter("nodes_launched_total", "provisioner", value).increment();
		}
		String scrape = fixture.registry.scrape();
		Exposition exposition = Exposition.parse(scrape);
		for (String family : List.of("karpenter_bind_duration_seconds", "karpenter_nodes_launched_total")) {
			ExposedFamily exposed = exposition.family(family).orElseThrow();
			assertThat(exposed.series()).as(family).hasSize(HOSTILE.size());
			assertThat(exposed.series()).extracting((labels) -> labels.get("provisioner"))
				.allSatisfy((value) -> assertThat(value.length()).isLessThanOrEqualTo(MAX_LENGTH));
		}
		assertThat(exposition.family("evil")).isEmpty();
		assertThat(exposition.family("karpenter_nodes_launched_total").orElseThrow().series()).contains(
				Map.of("provisioner", "quote\"d"), Map.of("provisioner", "new\nline"),
				Map.of("provisioner", "x".repeat(MAX_LENGTH)));
		List<String> problems = Promtool.checkMetrics(scrape);
		assertThat(problems).noneMatch((line) -> line.contains("error"))
			.noneMatch((line) -> line.startsWith("karpenter_"));
	}

}
