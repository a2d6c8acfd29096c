package dev.controllerobservability.autoconfigure.rules;

import java.util.List;
import java.util.concurrent.Executor;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.ControllerObservabilitySettings;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;

import static org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME;

/**
 * Auto-configuration of the controller's alert and recording rules, the metrics linter,
 * the generated artefacts (rules files, {@code PrometheusRule}, {@code ServiceMonitor}
 * and {@code PodMonitor}, dashboard, reference) and, with a Prometheus registry, the live
 * view of what is exposed and the start-up checks of rules and lint.
 */
@AutoConfiguration(after = ControllerObservabilityAutoConfiguration.class)
@ConditionalOnBean(ControllerOperations.class)
public final class ControllerRulesAndLintAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RuleSet controllerRuleSet(ControllerObservabilitySettings settings, ControllerOperations operations) {
		return RuleSetFactory.create(settings, operations);
	}

	@Bean
	@ConditionalOnMissingBean
	ControllerArtefacts controllerArtefacts(RuleSet rules, ControllerObservabilitySettings settings,
			ControllerOperations operations, ControllerMetrics metrics, MetricsLinter linter, Environment environment) {
		String applicationName = environment.getProperty("spring.application.name", settings.namespace());
		return new ControllerArtefacts(rules, settings, operations, metrics, linter, applicationName,
				settings.rules().scrape());
	}

	@Bean
	@ConditionalOnMissingBean
	MetricsLinter controllerMetricsLinter(ControllerObservabilitySettings settings) {
		return new MetricsLinter(settings.namespace(), settings.lint().allowedLabels(),
				settings.lint().frameworkPrefixes(), ControllerObservabilityProperties.PREFIX + ".lint.allowed-labels");
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ PrometheusRegistry.class, PrometheusMeterRegistry.class })
	static class LiveMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PrometheusMeterRegistry.class)
		LiveMetrics liveMetrics(PrometheusMeterRegistry registry, ControllerMetrics metrics,
				ControllerObservabilitySettings settings, MetricsLinter linter, ControllerOperations operations,
				ObjectProvider<MetricsProperties> metricsProperties,
				ObjectProvider<PrometheusConfig> prometheusConfig) {
			MetricsProperties properties = metricsProperties.getIfAvailable();
			return new LiveMetrics(registry, metrics, settings, linter, operations,
					RuleSetFactory.operationNames(settings),
					(properties != null) ? properties.getTags().keySet() : List.of(),
					prometheusConfig.getIfAvailable(() -> PrometheusConfig.DEFAULT));
		}

		@Bean
		@ConditionalOnBean(PrometheusMeterRegistry.class)
		StartupChecks controllerStartupChecks(LiveMetrics liveMetrics, RuleSet rules,
				ControllerObservabilitySettings settings,
				@Qualifier(APPLICATION_TASK_EXECUTOR_BEAN_NAME) ObjectProvider<Executor> applicationTaskExecutor) {
			return new StartupChecks(liveMetrics, rules, settings.lint().mode(), applicationTaskExecutor,
					settings.disabledMetrics());
		}

	}

}
