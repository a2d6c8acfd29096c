package dev.controllerobservability.autoconfigure.kubernetes;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

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
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, metricsExport,
					CompositeMeterRegistryAutoConfiguration.class, ObservationAutoConfiguration.class,
					ControllerObservabilityAutoConfiguration.class, ControllerRulesAndLintAutoConfiguration.class,
					ControllerObservabilityEndpointsAutoConfiguration.class,
					ObservedOperationAspectAutoConfiguration.class, KubernetesObservabilityAutoConfiguration.class))
			.withPropertyValues("controller.observability.namespace=karpenter");
	}

}
