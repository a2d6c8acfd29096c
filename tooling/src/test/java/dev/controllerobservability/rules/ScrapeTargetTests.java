package dev.controllerobservability.rules;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.controllerobservability.InvalidSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ScrapeTarget} refuses what the API server or Prometheus would reject, by the
 * rules that check the starter's {@code scrape.*} properties.
 */
class ScrapeTargetTests {

	private static final Map<String, String> SELECTOR = Map.of("app.kubernetes.io/name", "demo-controller");

	@Test
	void keepsWhatItIsGiven() {
		ScrapeTarget target = new ScrapeTarget("demo-controller", SELECTOR, Map.of("release", "prometheus"), "metrics",
				"/actuator/prometheus", "15s");
		assertThat(target.port()).isEqualTo("metrics");
		assertThat(target.interval()).isEqualTo("15s");
		assertThat(target.selector()).isEqualTo(SELECTOR);
	}

	static Stream<Arguments> badTargets() {
		return Stream.of(
				Arguments.of("scrape.port", "new ScrapeTarget(…) port", "Metrics_Port",
						"a Kubernetes port name has at most 15 lowercase letters, digits or single '-', with at least "
								+ "one letter, so the API server rejects a ServiceMonitor or PodMonitor naming it",
						SELECTOR, Map.of(), "Metrics_Port", "30s"),
				Arguments.of("scrape.port", "new ScrapeTarget(…) port", "1234", "a Kubernetes port name has at most "
						+ "15 lowercase letters, digits or single '-', with at least one letter, so the API server "
						+ "rejects a ServiceMonitor or PodMonitor naming it", SELECTOR, Map.of(), "1234", "30s"),
				Arguments.of("scrape.interval", "new ScrapeTarget(…) interval", "soon",
						"the scrape interval is a Prometheus duration", SELECTOR, Map.of(), "http", "soon"),
				Arguments.of("scrape.selector[app/kubernetes/name]",
						"new ScrapeTarget(…) selector key \"app/kubernetes/name\"", "app/kubernetes/name", null,
						Map.of("app/kubernetes/name", "x"), Map.of(), "http", "30s"),
				Arguments.of("rules.prometheus-rule-labels[release]", "new ScrapeTarget(…) labels key \"release\"",
						"-prometheus", null, SELECTOR, Map.of("release", "-prometheus"), "http", "30s"));
	}

	@ParameterizedTest(name = "{0} = {2}")
	@MethodSource("badTargets")
	void refusesWhatTheApiServerWouldReject(String property, String builderCall, String value, String reason,
			Map<String, String> selector, Map<String, String> labels, String port, String interval) {
		InvalidSettingException refused = assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(
					() -> new ScrapeTarget("demo-controller", selector, labels, port, "/actuator/prometheus", interval))
			.actual();
		assertThat(refused.getProperty()).isEqualTo(property);
		assertThat(refused.getBuilderCall()).isEqualTo(builderCall);
		assertThat(refused.getValue()).isEqualTo(value);
		if (reason != null) {
			assertThat(refused.getReason()).isEqualTo(reason);
		}
		else {
			assertThat(refused.getReason()).endsWith("so the API server rejects the ServiceMonitor or PodMonitor");
		}
	}

}
