package dev.controllerobservability.autoconfigure;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated {@code ServiceMonitor} and {@code PodMonitor} follow the application's
 * name, the actuator's paths and port, and {@code controller.observability.scrape.*}; bad
 * values stop start-up naming the property.
 */
class ScrapeTargetTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
						CompositeMeterRegistryAutoConfiguration.class, ObservationAutoConfiguration.class,
						ControllerObservabilityAutoConfiguration.class, ControllerRulesAndLintAutoConfiguration.class))
		.withPropertyValues("spring.application.name=demo-controller");

	@Test
	void scrapesTheActuatorPrometheusPathOnTheHttpPortEvery30Seconds() {
		this.contextRunner
			.withPropertyValues("controller.observability.rules.prometheus-rule-labels.release=prometheus")
			.run((context) -> {
				Map<String, Object> monitor = manifest(context, "servicemonitor");
				assertThat(monitor).containsEntry("kind", "ServiceMonitor");
				assertThat(metadata(monitor)).containsEntry("name", "demo-controller")
					.containsEntry("labels", Map.of("release", "prometheus"));
				assertThat(selector(monitor)).isEqualTo(Map.of("app.kubernetes.io/name", "demo-controller"));
				assertThat(endpoint(monitor, "endpoints"))
					.isEqualTo(Map.of("port", "http", "path", "/actuator/prometheus", "interval", "30s"));
				Map<String, Object> podMonitor = manifest(context, "podmonitor");
				assertThat(podMonitor).containsEntry("kind", "PodMonitor");
				assertThat(endpoint(podMonitor, "podMetricsEndpoints"))
					.isEqualTo(Map.of("port", "http", "path", "/actuator/prometheus", "interval", "30s"));
			});
	}

	@Test
	void followsTheManagementPortAndBasePaths() {
		this.contextRunner.withPropertyValues("management.server.port=9090", "management.server.base-path=/manage",
				"management.endpoints.web.base-path=/ops/", "management.endpoints.web.path-mapping.prometheus=metrics")
			.run((context) -> assertThat(endpoint(manifest(context, "servicemonitor"), "endpoints"))
				.isEqualTo(Map.of("port", "management", "path", "/manage/ops/metrics", "interval", "30s")));
	}

	@Test
	void takesThePortIntervalAndSelectorFromTheProperties() {
		this.contextRunner
			.withPropertyValues("controller.observability.scrape.port=metrics",
					"controller.observability.scrape.interval=15s",
					"controller.observability.scrape.selector[app.kubernetes.io/part-of]=karpenter")
			.run((context) -> {
				Map<String, Object> monitor = manifest(context, "podmonitor");
				assertThat(selector(monitor)).isEqualTo(Map.of("app.kubernetes.io/part-of", "karpenter"));
				assertThat(endpoint(monitor, "podMetricsEndpoints")).containsEntry("port", "metrics")
					.containsEntry("interval", "15s");
			});
	}

	@Test
	void refusesAPortNameKubernetesRefuses() {
		this.contextRunner.withPropertyValues("controller.observability.scrape.port=Metrics_Port")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidObservabilityPropertyException.class)
				.hasMessageContaining("controller.observability.scrape.port")
				.hasMessageContaining("Metrics_Port"));
	}

	@Test
	void refusesAnIntervalThatIsNoPrometheusDuration() {
		this.contextRunner.withPropertyValues("controller.observability.scrape.interval=soon")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidObservabilityPropertyException.class)
				.hasMessageContaining("controller.observability.scrape.interval"));
	}

	private static Map<String, Object> manifest(AssertableApplicationContext context, String format) {
		assertThat(context).hasNotFailed();
		return new Yaml().load(context.getBean(ControllerArtefacts.class).byFormat().get(format).get());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> metadata(Map<String, Object> manifest) {
		return (Map<String, Object>) manifest.get("metadata");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> selector(Map<String, Object> manifest) {
		Map<String, Object> spec = (Map<String, Object>) manifest.get("spec");
		return (Map<String, Object>) ((Map<String, Object>) spec.get("selector")).get("matchLabels");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> endpoint(Map<String, Object> manifest, String key) {
		Map<String, Object> spec = (Map<String, Object>) manifest.get("spec");
		return ((List<Map<String, Object>>) spec.get(key)).get(0);
	}

}
