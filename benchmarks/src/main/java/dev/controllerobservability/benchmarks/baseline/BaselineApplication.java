package dev.controllerobservability.benchmarks.baseline;

import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.KubernetesObservabilityAutoConfiguration;

/**
 * The demo's application without the starter: Spring Boot with web, Actuator and the
 * Prometheus registry only, on the same class path.
 */
@SpringBootApplication(exclude = { ControllerObservabilityAutoConfiguration.class,
		KubernetesObservabilityAutoConfiguration.class })
public class BaselineApplication {

}
