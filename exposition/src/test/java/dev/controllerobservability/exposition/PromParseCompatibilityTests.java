package dev.controllerobservability.exposition;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The cases of Prometheus 2.42's {@code model/textparse/promparse_test.go}
 * ({@code TestPromParse}, {@code TestPromParseErrors}, {@code TestPromNullByteHandling}),
 * plus the lexer's corners, each read as Prometheus reads it or refused with its reason
 * and the line.
 */
class PromParseCompatibilityTests {

	// TestPromParse's input, with its NUL in a HELP text and in a label value.
	private static final String PROM_PARSE_INPUT = """
			# HELP go_gc_duration_seconds A summary of the GC invocation durations.
			# \tTYPE go_gc_duration_seconds summary
			go_gc_duration_seconds{quantile="0"} 4.9351e-05
			go_gc_duration_seconds{quantile="0.25",} 7.424100000000001e-05
			go_gc_duration_seconds{quantile="0.5",a="b"} 8.3835e-05
			go_gc_duration_seconds{quantile="0.8", a="b"} 8.3835e-05
			go_gc_duration_seconds{ quantile="0.9", a="b"} 8.3835e-05
			# Hrandom comment starting with prefix of HELP
			#
			wind_speed{A="2",c="3"} 12345
			# comment with escaped \\n newline
			# comment with escaped \\ escape character
			# HELP nohelp1
			# HELP nohelp2\s
			go_gc_duration_seconds{ quantile="1.0", a="b" } 8.3835e-05
			go_gc_duration_seconds { quantile="1.0", a="b" } 8.3835e-05
			go_gc_duration_seconds { quantile= "1.0", a= "b", } 8.3835e-05
			go_gc_duration_seconds { quantile = "1.0", a = "b" } 8.3835e-05
			go_gc_duration_seconds_count 99
			some:aggregate:rate5m{a_b="c"}\t1
			# HELP go_goroutines Number of goroutines that currently exist.
			# TYPE go_goroutines gauge
			go_goroutines 33  \t123123
			_metric_starting_with_underscore 1
			testmetric{_label_starting_with_underscore="foo"} 1
			testmetric{label="\\"bar\\""} 1
			# HELP metric foo\u0000bar
			null_byte_metric{a="abc\u0000"} 1""";

	@Test
	void readsThePromParseTestInput() {
		Exposition exposition = Exposition.parse(PROM_PARSE_INPUT);
		assertThat(exposition.samples()).containsExactly(sample("go_gc_duration_seconds", 4.9351e-05, "quantile", "0"),
				sample("go_gc_duration_seconds", 7.424100000000001e-05, "quantile", "0.25"),
				sample("go_gc_duration_seconds", 8.3835e-05, "quantile", "0.5", "a", "b"),
				sample("go_gc_duration_seconds", 8.3835e-05, "quantile", "0.8", "a", "b"),
				sample("go_gc_duration_seconds", 8.3835e-05, "quantile", "0.9", "a", "b"),
				sample("wind_speed", 12345, "A", "2", "c", "3"),
				sample("go_gc_duration_seconds", 8.3835e-05, "quantile", "1.0", "a", "b"),
				sample("go_gc_duration_seconds", 8.3835e-05, "quantile", "1.0", "a", "b"),
				sample("go_gc_duration_seconds", 8.3835e-05, "quantile", "1.0", "a", "b"),
				sample("go_gc_duration_seconds", 8.3835e-05, "quantile", "1.0", "a", "b"),
				sample("go_gc_duration_seconds_count", 99), sample("some:aggregate:rate5m", 1, "a_b", "c"),
				new ExposedSample("go_goroutines", Map.of(), 33, 123123L),
				sample("_metric_starting_with_underscore", 1),
				sample("testmetric", 1, "_label_starting_with_underscore", "foo"),
				sample("testmetric", 1, "label", "\"bar\""), sample("null_byte_metric", 1, "a", "abc\u0000"));
		assertThat(exposition.families()).extracting(ExposedFamily::name, ExposedFamily::type, ExposedFamily::help)
			.containsExactly(
					org.assertj.core.api.Assertions.tuple("go_gc_duration_seconds", "summary",
							"A summary of the GC invocation durations."),
					org.assertj.core.api.Assertions.tuple("wind_speed", "untyped", null),
					org.assertj.core.api.Assertions.tuple("nohelp1", "untyped", ""),
					org.assertj.core.api.Assertions.tuple("nohelp2", "untyped", ""),
					org.assertj.core.api.Assertions.tuple("some:aggregate:rate5m", "untyped", null),
					org.assertj.core.api.Assertions.tuple("go_goroutines", "gauge",
							"Number of goroutines that currently exist."),
					org.assertj.core.api.Assertions.tuple("_metric_starting_with_underscore", "untyped", null),
					org.assertj.core.api.Assertions.tuple("testmetric", "untyped", null),
					org.assertj.core.api.Assertions.tuple("metric", "untyped", "foo\u0000bar"),
					org.assertj.core.api.Assertions.tuple("null_byte_metric", "untyped", null));
		assertThat(exposition.family("go_gc_duration_seconds").orElseThrow().series()).containsExactly(Map.of(),
				Map.of("a", "b"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void readsWhatPrometheusReads(String input, List<ExposedSample> samples) {
		assertThat(Exposition.parse(input).samples()).containsExactlyElementsOf(samples);
	}

	static Stream<Arguments> readsWhatPrometheusReads() {
		return Stream.of(
				// TestPromNullByteHandling
				arguments("null_byte_metric{a=\"abc\u0000\"} 1",
						List.of(sample("null_byte_metric", 1, "a", "abc\u0000"))),
				arguments("a{b=\"\u0000ss\"} 1\n", List.of(sample("a", 1, "b", "\u0000ss"))),
				arguments("a{b=\"\u0000\"} 1\n", List.of(sample("a", 1, "b", "\u0000"))),
				// The lexer's corners
				arguments("a 1", List.of(sample("a", 1))), arguments("  \ta 1\n\n \n", List.of(sample("a", 1))),
				arguments("a{} 1\n", List.of(sample("a", 1))),
				arguments("a{b=\"1\" c=\"2\"} 1\n", List.of(sample("a", 1, "b", "1", "c", "2"))),
				arguments("a{b=\"x\ny\"} 1\n", List.of(sample("a", 1, "b", "x\ny"))),
				arguments("a{b=\"\\t\\\\\\\"\\n\\x\"} 1\n", List.of(sample("a", 1, "b", "\\t\\\"\n\\x"))),
				arguments("a{b=\"}, c=\\\"d\\\"\"} 1\n", List.of(sample("a", 1, "b", "}, c=\"d\""))),
				arguments("a 1 0\n", List.of(new ExposedSample("a", Map.of(), 1, 0L))),
				arguments("a 1\n\u0000 everything after a NUL at a line start is ignored\n", List.of(sample("a", 1))),
				arguments("#no blank after the hash is a comment\na 1\n", List.of(sample("a", 1))),
				arguments("# HELP\n# HELPx y\n# TYPEa b\na 1\n", List.of(sample("a", 1))));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void readsValuesAsGoParseFloatDoes(String value, double expected) {
		assertThat(Exposition.parse("a " + value + "\n").samples()).singleElement()
			.extracting(ExposedSample::value)
			.isEqualTo(expected);
	}

	static Stream<Arguments> readsValuesAsGoParseFloatDoes() {
		return Stream.of(arguments("+Inf", Double.POSITIVE_INFINITY), arguments("-Inf", Double.NEGATIVE_INFINITY),
				arguments("inf", Double.POSITIVE_INFINITY), arguments("-INFINITY", Double.NEGATIVE_INFINITY),
				arguments("NaN", Double.NaN), arguments("nan", Double.NaN), arguments("1", 1.0),
				arguments("-1.5e3", -1500.0), arguments("1E+2", 100.0), arguments(".5", 0.5), arguments("5.", 5.0),
				arguments("+007", 7.0), arguments("1e-400", 0.0));
	}

	@Test
	void readsHelpAndTypeTextAsPrometheusCutsIt() {
		Exposition exposition = Exposition.parse("""
				#  \tTYPE  a\tgauge
				# HELP a  two blanks, \\\\, \\n, \\" and \\t
				# HELP b
				# HELP c\t\s
				""");
		assertThat(exposition.family("a").orElseThrow().type()).isEqualTo("gauge");
		assertThat(exposition.family("a").orElseThrow().help()).isEqualTo(" two blanks, \\, \n, \\\" and \\t");
		assertThat(exposition.family("b").orElseThrow().help()).isEmpty();
		assertThat(exposition.family("c").orElseThrow().help()).isEmpty();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource
	void refusesWhatPrometheusRefuses(String input, int line, String reason) {
		assertThatIllegalArgumentException().isThrownBy(() -> Exposition.parse(input))
			.withMessageStartingWith(
					"Line " + line + " is not of the Prometheus text format: " + reason + " at column");
	}

	static Stream<Arguments> refusesWhatPrometheusRefuses() {
		return Stream.of(
				// TestPromParseErrors
				arguments("a", 1, "expected value after metric, got \"INVALID\""),
				arguments("a{b='c'} 1\n", 1, "expected label value, got \"INVALID\""),
				arguments("a{b=\n", 1, "expected label value, got \"INVALID\""),
				arguments("a{\u00ff=\"foo\"} 1\n", 1, "expected label name, got \"INVALID\""),
				arguments("a true\n", 1, "strconv.ParseFloat: parsing \"true\": invalid syntax"),
				arguments("something_weird{problem=\"", 1, "expected label value, got \"INVALID\""),
				arguments("empty_label_name{=\"\"} 0", 1, "expected label name, got \"EQUAL\""),
				arguments("foo 1_2\n", 1, "unsupported character in float"),
				arguments("foo 0x1p-3\n", 1, "unsupported character in float"),
				arguments("foo 0x1P-3\n", 1, "unsupported character in float"),
				arguments("foo 0 1_2\n", 1, "expected next entry after timestamp, got \"INVALID\""),
				arguments("{a=\"ok\"} 1", 1, "\"INVALID\" is not a valid start token"),
				arguments("# TYPE #\n#EOF\n", 1, "expected metric name after TYPE, got \"INVALID\""),
				arguments("# HELP #\n#EOF\n", 1, "expected metric name after HELP, got \"INVALID\""),
				// TestPromNullByteHandling
				arguments("a{b=\u0000\"ssss\"} 1\n", 1, "expected label value, got \"INVALID\""),
				arguments("a{b=\"\u0000", 1, "expected label value, got \"INVALID\""),
				arguments("a{b\u0000=\"hiih\"}\t1", 1, "expected equal, got \"INVALID\""),
				arguments("a\u0000{b=\"ddd\"} 1", 1, "expected value after metric, got \"INVALID\""),
				arguments("a 0 1\u0000", 1, "expected next entry after timestamp, got \"INVALID\""),
				// The lexer's and ParseFloat's corners, on later lines
				arguments("a 1\nb{@=\"x\"} 1\n", 2, "expected label name, got \"INVALID\""),
				arguments("a 1\nb{c:d=\"x\"} 1\n", 2, "expected equal, got \"INVALID\""),
				arguments("a 1\nb{c=\"x\",,} 1\n", 2, "expected label name, got \"COMMA\""),
				arguments("a 1\nb{c=\"x\\\ny\"} 1\n", 2, "expected label value, got \"INVALID\""),
				arguments("a 1\nb{c=\"x\"}{d=\"y\"} 1\n", 2, "expected value after metric, got \"BOPEN\""),
				arguments("a 1\n\nb 0x10\n", 3, "strconv.ParseFloat: parsing \"0x10\": invalid syntax"),
				arguments("a 1\nb 1e400\n", 2, "strconv.ParseFloat: parsing \"1e400\": value out of range"),
				arguments("a 1\nb +NaN\n", 2, "strconv.ParseFloat: parsing \"+NaN\": invalid syntax"),
				arguments("a 1\nb 1d\n", 2, "strconv.ParseFloat: parsing \"1d\": invalid syntax"),
				arguments("a 1\r\n", 1, "strconv.ParseFloat: parsing \"1\r\": invalid syntax"),
				arguments("a 1\nb 1 -5\n", 2, "expected timestamp or new record, got \"INVALID\""),
				arguments("a 1\nb 1 2 3\n", 2, "expected next entry after timestamp, got \"TIMESTAMP\""),
				arguments("a 1\nb 1 99999999999999999999\n", 2,
						"strconv.ParseInt: parsing \"99999999999999999999\": value out of range"),
				arguments("a 1\n# TYPE b  gauge\n", 2, "invalid metric type \" gauge\""),
				arguments("a 1\n# TYPE b Gauge\n", 2, "invalid metric type \"Gauge\""),
				arguments("a 1\n# TYPE b\n", 2, "invalid metric type \"\""),
				arguments("a 1\n# HELP b\u0000c\n", 2, "linebreak expected after metadata, got \"EOF\""));
	}

	private static ExposedSample sample(String name, double value, String... labels) {
		Map<String, String> map = new LinkedHashMap<>();
		for (int i = 0; i < labels.length; i += 2) {
			map.put(labels[i], labels[i + 1]);
		}
		return new ExposedSample(name, map, value);
	}

}
