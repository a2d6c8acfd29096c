package dev.controllerobservability.exposition;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

class ExpositionTests {

	@Test
	void groupsHistogramSamplesIntoOneFamilyWithOneSeriesPerLabelSet() {
		Exposition exposition = Exposition.parse("""
				# HELP x_seconds Help with \\\\ backslash and \\n newline.
				# TYPE x_seconds histogram
				x_seconds_bucket{a="1",le="0.5"} 1
				x_seconds_bucket{a="1",le="+Inf"} 1
				x_seconds_count{a="1"} 1
				x_seconds_sum{a="1"} 0.2
				x_seconds_bucket{a="2",le="0.5"} 0
				x_seconds_bucket{a="2",le="+Inf"} 0
				x_seconds_count{a="2"} 0
				x_seconds_sum{a="2"} 0
				y_total{v="quote \\" comma, brace }"} 3
				""");
		ExposedFamily histogram = exposition.family("x_seconds").orElseThrow();
		assertThat(histogram.type()).isEqualTo("histogram");
		assertThat(histogram.help()).isEqualTo("Help with \\ backslash and \n newline.");
		assertThat(histogram.series()).containsExactly(Map.of("a", "1"), Map.of("a", "2"));
		assertThat(histogram.buckets()).containsExactly(0.5);
		ExposedFamily untyped = exposition.family("y_total").orElseThrow();
		assertThat(untyped.type()).isEqualTo("untyped");
		assertThat(untyped.help()).isNull();
		assertThat(untyped.series()).containsExactly(Map.of("v", "quote \" comma, brace }"));
		assertThat(exposition.families()).extracting(ExposedFamily::name).containsExactly("x_seconds", "y_total");
	}

	@Test
	void reportsFamiliesDeclaredTwice() {
		Exposition exposition = Exposition.parse("# TYPE a gauge\na 1\n# TYPE a gauge\na 2\n");
		assertThat(exposition.duplicateNames()).isEqualTo(List.of("a"));
	}

	@Test
	void rejectsLinesThatAreNotTheTextFormat() {
		assertThatIllegalArgumentException().isThrownBy(() -> Exposition.parse("a{b=\"1\" 1\n"))
			.withMessageStartingWith("Line 1 is not of the Prometheus text format");
	}

	@Test
	void keepsABackslashBeforeAnyOtherCharacterAsPrometheusDoes() {
		Exposition exposition = Exposition.parse("""
				# HELP a Help with \\" and \\t kept.
				a{b="tab \\t, quote \\", line \\n, backslash \\\\"} 1
				""");
		assertThat(exposition.family("a").orElseThrow().help()).isEqualTo("Help with \\\" and \\t kept.");
		assertThat(exposition.samples()).singleElement()
			.satisfies((sample) -> assertThat(sample.labels())
				.containsExactly(Map.entry("b", "tab \\t, quote \", line \n, backslash \\")));
	}

	@Test
	void refusesALabelKeyThatIsNotALabelName() {
		assertThatIllegalArgumentException().isThrownBy(() -> Exposition.parse("a 1\na{@=\"x\"} 1\n"))
			.withMessageStartingWith(
					"Line 2 is not of the Prometheus text format: expected label name, got \"INVALID\"");
	}

	@Test
	void refusesASampleWithoutAMetricName() {
		assertThatIllegalArgumentException().isThrownBy(() -> Exposition.parse("a 1\n\n{a=\"ok\"} 1\n"))
			.withMessageStartingWith(
					"Line 3 is not of the Prometheus text format: \"INVALID\" is not a valid start token");
	}

	@Test
	void refusesHexadecimalFloats() {
		assertThatIllegalArgumentException().isThrownBy(() -> Exposition.parse("# TYPE a gauge\na 0x1p3\n"))
			.withMessageStartingWith("Line 2 is not of the Prometheus text format: unsupported character in float");
	}

	@Test
	void readsALastLineWithoutALineFeedAsPrometheusDoes() {
		Exposition exposition = Exposition.parse("a 1\nb 7");
		assertThat(exposition.samples()).extracting(ExposedSample::name, ExposedSample::value)
			.containsExactly(tuple("a", 1.0), tuple("b", 7.0));
	}

	@Test
	void readsBlanksBetweenTokensATrailingCommaAndATimestamp() {
		Exposition exposition = Exposition.parse("\t a \t{ b = \"1\" ,\tc=\"2\", } \t 3  123\n");
		assertThat(exposition.samples()).singleElement().satisfies((sample) -> {
			assertThat(sample.name()).isEqualTo("a");
			assertThat(sample.labels()).containsExactly(Map.entry("b", "1"), Map.entry("c", "2"));
			assertThat(sample.value()).isEqualTo(3.0);
		});
	}

}
