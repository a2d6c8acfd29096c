package dev.controllerobservability.internal.metrics;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class MetricNamesTests {

	@ParameterizedTest
	@CsvSource({ "apply-packing,apply_packing", "bind,bind", "Demo-Controller,demo_controller",
			"applyPacking,apply_packing", "'  spaced name ',spaced_name", "__x__,x", "HTTPServer,httpserver",
			"a..b,a_b" })
	void convertsTextToSnakeCase(String text, String expected) {
		assertThat(MetricNames.toSnakeCase(text)).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "karpenter", "allocation_controller", "_x", "a1" })
	void acceptsSnakeCaseNames(String name) {
		assertThat(MetricNames.isSnakeCase(name)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "Karpenter", "1abc", "__reserved", "a-b", "a.b", "a:b", "a b" })
	void rejectsOtherNames(String name) {
		assertThat(MetricNames.isSnakeCase(name)).isFalse();
	}

}
