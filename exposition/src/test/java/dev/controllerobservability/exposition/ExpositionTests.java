package dev.controllerobservability.exposition;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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

}
