package dev.controllerobservability.benchmarks.baseline;

import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.ControllerRulesAndLintAutoConfiguration;
import dev.controllerobservability.autoconfigure.KubernetesObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.ObservedOperationAspectAutoConfiguration;

/**
 * The demo's application without the starter: Spring Boot with web, Actuator and the
 * Prometheus registry only, on the same class path.
 */
@SpringBootApplication(exclude = { ControllerObservabilityAutoConfiguration.class,
		ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
		ObservedOperationAspectAutoConfiguration.class, KubernetesObservabilityAutoConfiguration.class })
public class BaselineApplication {

}
