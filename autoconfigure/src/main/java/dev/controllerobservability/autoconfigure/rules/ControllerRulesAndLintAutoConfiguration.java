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

import io.micrometer.core.instrument.Tag;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.ControllerObservabilitySettings;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.rules.RuleSettings;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.live.DeclaredMetrics;
import dev.controllerobservability.live.LiveMetrics;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.rules.InvalidRuleException;
import dev.controllerobservability.rules.RuleSet;

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
		RuleSettings rules = settings.rules();
		try {
			return rules.toRuleSet(settings.core().namespace(), operations::describe,
					settings.core().disabledMetrics());
		}
		catch (InvalidSettingException ex) {
			throw InvalidObservabilityPropertyException.of(ex);
		}
		catch (InvalidRuleException ex) {
			throw InvalidObservabilityPropertyException
				.of(ControllerObservabilityProperties.PREFIX + "." + rules.property(ex.getRule()), ex, "");
		}
	}

	@Bean
	@ConditionalOnMissingBean
	DeclaredMetrics controllerDeclaredMetrics(ControllerObservabilitySettings settings, ControllerMetrics metrics,
			ControllerOperations operations) {
		return new DeclaredMetrics(settings.core().namespace(), metrics, operations,
				settings.rules().operationNames(settings.core().operationDefinitions().keySet()),
				settings.core().commonTags().stream().map(Tag::getKey).toList(), settings.core().durationBuckets(),
				settings.core().disabledMetrics());
	}

	@Bean
	@ConditionalOnMissingBean
	ControllerArtefacts controllerArtefacts(DeclaredMetrics declared, RuleSet rules,
			ControllerObservabilitySettings settings, MetricsLinter linter, Environment environment) {
		RuleSettings configured = settings.rules();
		return new ControllerArtefacts(declared, rules, linter,
				environment.getProperty("spring.application.name", settings.core().namespace()),
				configured.prometheusRuleLabels(), configured.window(), configured.scrape());
	}

	@Bean
	@ConditionalOnMissingBean
	MetricsLinter controllerMetricsLinter(ControllerObservabilitySettings settings) {
		return new MetricsLinter(settings.core().namespace(), settings.lint().allowedLabels(),
				settings.lint().frameworkPrefixes(), ControllerObservabilityProperties.PREFIX + ".lint.allowed-labels");
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ PrometheusRegistry.class, PrometheusMeterRegistry.class })
	static class LiveMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnBean(PrometheusMeterRegistry.class)
		LiveMetrics liveMetrics(PrometheusMeterRegistry registry, DeclaredMetrics declared, MetricsLinter linter,
				ObjectProvider<MetricsProperties> metricsProperties,
				ObjectProvider<PrometheusConfig> prometheusConfig) {
			MetricsProperties properties = metricsProperties.getIfAvailable();
			return new LiveMetrics(registry, prometheusConfig.getIfAvailable(() -> PrometheusConfig.DEFAULT), declared,
					linter, (properties != null) ? properties.getTags().keySet() : List.of());
		}

		@Bean
		@ConditionalOnBean(PrometheusMeterRegistry.class)
		StartupChecks controllerStartupChecks(LiveMetrics liveMetrics, RuleSet rules,
				ControllerObservabilitySettings settings,
				@Qualifier(APPLICATION_TASK_EXECUTOR_BEAN_NAME) ObjectProvider<Executor> applicationTaskExecutor) {
			return new StartupChecks(liveMetrics, rules, settings.lint().mode(), applicationTaskExecutor,
					settings.core().disabledMetrics());
		}

	}

}
