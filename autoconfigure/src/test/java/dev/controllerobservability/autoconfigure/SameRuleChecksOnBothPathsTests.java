package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.rules.AlertSeverity;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.rules.ScrapeTarget;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each check of the rules, built-in operation rules and scrape settings, fed the same bad
 * value through the properties and through the tooling's plain-Java API
 * ({@link RuleSet.Builder}, {@link RuleSet#toPrometheusRule}, {@link ScrapeTarget}): both
 * refuse it, for the same reason, with the same fix, and name the same setting.
 */
class SameRuleChecksOnBothPathsTests {

	private static final String PREFIX = "controller.observability.";

	private static final Map<String, String> SELECTOR = Map.of("app.kubernetes.io/name", "demo");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, ObservationAutoConfiguration.class,
					ControllerObservabilityAutoConfiguration.class, ControllerRulesAndLintAutoConfiguration.class));

	static Stream<Arguments> badValues() {
		return Stream.of(bad("rules.window", () -> rules().window("soon").build(), "rules.window=soon"),
				bad("rules.group", () -> rules().group("").build(), "rules.group="),
				bad("rules.operations.9lives", () -> rules().stuckAlert("9lives", "15m", AlertSeverity.WARNING).build(),
						"rules.operations.9lives.stuck.enabled=true"),
				bad("rules.operations.launch.error-ratio.threshold",
						() -> rules().errorRatioAlert("launch", 5, "10m", AlertSeverity.WARNING).build(),
						"rules.operations.launch.error-ratio.enabled=true",
						"rules.operations.launch.error-ratio.threshold=5"),
				bad("rules.operations.launch.error-ratio.threshold",
						() -> rules().errorRatioAlert("launch", 0, "10m", AlertSeverity.WARNING).build(),
						"rules.operations.launch.error-ratio.enabled=true",
						"rules.operations.launch.error-ratio.threshold=0"),
				bad("rules.operations.launch.error-ratio.for",
						() -> rules().errorRatioAlert("launch", 0.05, "soon", AlertSeverity.WARNING).build(),
						"rules.operations.launch.error-ratio.enabled=true",
						"rules.operations.launch.error-ratio.for=soon"),
				bad("rules.operations.bind.latency.quantile",
						() -> rules().latencyAlert("bind", 1, Duration.ofSeconds(1), "10m", AlertSeverity.WARNING)
							.build(),
						"rules.operations.bind.latency.enabled=true", "rules.operations.bind.latency.quantile=1"),
				bad("rules.operations.bind.latency.threshold",
						() -> rules().latencyAlert("bind", 0.99, Duration.ZERO, "10m", AlertSeverity.WARNING).build(),
						"rules.operations.bind.latency.enabled=true", "rules.operations.bind.latency.threshold=0s"),
				bad("rules.operations.bind.latency.for",
						() -> rules().latencyAlert("bind", 0.99, Duration.ofSeconds(1), "1 hour", AlertSeverity.INFO)
							.build(),
						"rules.operations.bind.latency.enabled=true", "rules.operations.bind.latency.for=1 hour"),
				bad("rules.operations.launch.stuck.for",
						() -> rules().stuckAlert("launch", "15", AlertSeverity.CRITICAL).build(),
						"rules.operations.launch.stuck.enabled=true", "rules.operations.launch.stuck.for=15"),
				bad("rules.prometheus-rule-labels[bad key!]",
						() -> rules().build().toPrometheusRule("demo-rules", Map.of("bad key!", "x")),
						"rules.prometheus-rule-labels[bad key!]=x"),
				bad("rules.prometheus-rule-labels[release]",
						() -> rules().build().toPrometheusRule("demo-rules", Map.of("release", "-prometheus")),
						"rules.prometheus-rule-labels[release]=-prometheus"),
				bad("scrape.port", () -> scrapeTarget(SELECTOR, "Metrics_Port", "30s"), "scrape.port=Metrics_Port"),
				bad("scrape.port", () -> scrapeTarget(SELECTOR, "metrics--port", "30s"), "scrape.port=metrics--port"),
				bad("scrape.interval", () -> scrapeTarget(SELECTOR, "http", "soon"), "scrape.interval=soon"),
				bad("scrape.selector[app/kubernetes/name]",
						() -> scrapeTarget(Map.of("app/kubernetes/name", "demo"), "http", "30s"),
						"scrape.selector[app/kubernetes/name]=demo"));
	}

	private static Arguments bad(String property, ThrowingCallable plainJava, String... properties) {
		return Arguments.of(property, plainJava,
				Stream.of(properties).map((assignment) -> PREFIX + assignment).toArray(String[]::new));
	}

	private static RuleSet.Builder rules() {
		return RuleSet.builder("controller",
				ControllerObservability.builder(new SimpleMeterRegistry()).build().operations()::describe);
	}

	private static ScrapeTarget scrapeTarget(Map<String, String> selector, String port, String interval) {
		return new ScrapeTarget("demo", selector, Map.of(), port, "/actuator/prometheus", interval);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badValues")
	void refusesTheSameValueForTheSameReasonOnBothPaths(String property, ThrowingCallable plainJava,
			String[] properties) {
		InvalidSettingException plain = assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(plainJava)
			.actual();
		assertThat(plain.getProperty()).isEqualTo(property);
		SameRefusal.assertSameRefusal(this.contextRunner, plain, properties);
	}

}
