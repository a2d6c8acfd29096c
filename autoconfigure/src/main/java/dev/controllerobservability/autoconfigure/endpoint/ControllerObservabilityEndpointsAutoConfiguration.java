package dev.controllerobservability.autoconfigure.endpoint;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.controllerobservability.autoconfigure.ControllerObservabilitySettings;
import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;
import dev.controllerobservability.live.LiveMetrics;

/**
 * Auto-configuration of the actuator endpoints {@code controllermetrics},
 * {@code controllermetricslint} (both over the live Prometheus registry) and
 * {@code controllerrules}.
 */
@AutoConfiguration(after = ControllerRulesAndLintAutoConfiguration.class)
@ConditionalOnClass({ ConditionalOnAvailableEndpoint.class, PrometheusRegistry.class, PrometheusMeterRegistry.class })
@ConditionalOnBean(ControllerArtefacts.class)
public final class ControllerObservabilityEndpointsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	@ConditionalOnBean(LiveMetrics.class)
	ControllerMetricsEndpoint controllerMetricsEndpoint(LiveMetrics liveMetrics,
			ControllerObservabilitySettings settings) {
		return new ControllerMetricsEndpoint(liveMetrics, settings.core().namespace());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	ControllerRulesEndpoint controllerRulesEndpoint(ControllerArtefacts artefacts) {
		return new ControllerRulesEndpoint(artefacts.rules(), artefacts.byFormat());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	@ConditionalOnBean(LiveMetrics.class)
	ControllerMetricsLintEndpoint controllerMetricsLintEndpoint(LiveMetrics liveMetrics) {
		return new ControllerMetricsLintEndpoint(liveMetrics);
	}

}
