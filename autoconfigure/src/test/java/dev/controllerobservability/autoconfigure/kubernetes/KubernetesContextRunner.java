package dev.controllerobservability.autoconfigure.kubernetes;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

/**
 * The auto-configurations a controller with the starter has, including the Kubernetes
 * one, with the {@code karpenter} namespace.
 */
final class KubernetesContextRunner {

	private KubernetesContextRunner() {
	}

	/**
	 * A context runner.
	 * @param metricsExport the registry's export auto-configuration (simple or
	 * Prometheus)
	 * @return the runner
	 */
	static ApplicationContextRunner with(Class<?> metricsExport) {
		return new ApplicationContextRunner().withConfiguration(configurations(metricsExport))
			.withPropertyValues("controller.observability.namespace=karpenter");
	}

	/**
	 * The same auto-configurations in a servlet web application context.
	 * @return the runner
	 */
	static WebApplicationContextRunner servlet() {
		return new WebApplicationContextRunner()
			.withConfiguration(configurations(SimpleMetricsExportAutoConfiguration.class))
			.withPropertyValues("controller.observability.namespace=karpenter");
	}

	/**
	 * The same auto-configurations in a reactive web application context.
	 * @return the runner
	 */
	static ReactiveWebApplicationContextRunner reactive() {
		return new ReactiveWebApplicationContextRunner()
			.withConfiguration(configurations(SimpleMetricsExportAutoConfiguration.class))
			.withPropertyValues("controller.observability.namespace=karpenter");
	}

	private static AutoConfigurations configurations(Class<?> metricsExport) {
		return AutoConfigurations.of(MetricsAutoConfiguration.class, metricsExport,
				CompositeMeterRegistryAutoConfiguration.class, ObservationAutoConfiguration.class,
				ControllerObservabilityAutoConfiguration.class, ControllerRulesAndLintAutoConfiguration.class,
				ControllerObservabilityEndpointsAutoConfiguration.class, ObservedOperationAspectAutoConfiguration.class,
				KubernetesObservabilityAutoConfiguration.class);
	}

}
