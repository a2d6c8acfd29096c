package dev.controllerobservability.autoconfigure.kubernetes;

import java.util.List;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.web.util.pattern.PathPattern;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.internal.kubernetes.ControllerRuntimeHistograms;
import dev.controllerobservability.internal.kubernetes.RestClientSizes;
import dev.controllerobservability.internal.kubernetes.WebhookFamilies;
import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;
import dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.kubernetes.operator.ResourceStateMetrics;
import dev.controllerobservability.kubernetes.process.StandardProcessMetrics;
import dev.controllerobservability.kubernetes.webhook.WebhookMetrics;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.DirectPrometheusFamilies;
import dev.controllerobservability.autoconfigure.KubernetesProperties;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;
import dev.controllerobservability.autoconfigure.strictness.ConditionalOnObservabilitySwitch;

/**
 * Kubernetes metrics under their standard names: {@code leader_election_master_status}
 * always, the standard {@code process_*} metrics of Go controllers when
 * prometheus-metrics-instrumentation-jvm and a Prometheus registry are present,
 * {@code rest_client_*} for fabric8 clients built through the
 * {@link KubernetesClientMetrics} bean when fabric8 is present (with the opt-in families
 * of {@code controller.observability.kubernetes.client.metrics}), and
 * {@code controller_runtime_*} / {@code workqueue_*} (and {@code rest_client_*} for the
 * operator's own calls) for Java Operator SDK operators when the SDK is present. The
 * application's {@link KubernetesClient} beans are left as they are, and none is defined
 * here. The operator's metrics forget each deleted primary resource in every per-object
 * metric of the catalog; with
 * {@code controller.observability.kubernetes.resource-state.enabled=true} they also
 * record the {@link ResourceStateMetrics}, declared here. In a web application,
 * {@code controller_runtime_webhook_*} for the webhooks declared in
 * {@code controller.observability.kubernetes.webhooks.*} or with {@code @ObservedWebhook}
 * on their Spring MVC or WebFlux handler methods. Turned off with
 * {@code controller.observability.kubernetes.enabled=false}.
 */
@AutoConfiguration(after = ControllerObservabilityAutoConfiguration.class)
@ConditionalOnBean(RecordingFailures.class)
@ConditionalOnObservabilitySwitch(ControllerObservabilityProperties.PREFIX + ".kubernetes.enabled")
public final class KubernetesObservabilityAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeaderElectionMetrics leaderElectionMetrics(MeterRegistry meterRegistry) {
		return new LeaderElectionMetrics(meterRegistry);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ProcessMetrics.class)
	@ConditionalOnBean(PrometheusRegistry.class)
	static class ProcessMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		StandardProcessMetrics standardProcessMetrics(PrometheusRegistry prometheusRegistry, NamingPolicy naming) {
			// Micrometer's process meters get management.metrics.tags from a meter
			// filter these do not pass.
			return StandardProcessMetrics.register(prometheusRegistry, naming.standardLabels());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ KubernetesClient.class, KubernetesClientImpl.class })
	static class KubernetesClientConfiguration {

		@Bean
		@Lazy
		@ConditionalOnMissingBean
		KubernetesClientMetrics kubernetesClientMetrics(MeterRegistry meterRegistry,
				ObjectProvider<PrometheusRegistry> prometheusRegistry, NamingPolicy naming, RecordingFailures failures,
				ControllerObservabilityProperties properties) {
			// As the controller-runtime histograms: without a Prometheus registry the
			// size histograms are recorded but exported nowhere.
			return KubernetesClientMetrics.builder(meterRegistry, failures)
				.enable(properties.kubernetes().client().metrics())
				.prometheusRegistry(prometheusRegistry.getIfAvailable(PrometheusRegistry::new))
				.disabledMetrics(naming.disabledMetrics())
				.constantLabels(naming.standardLabels())
				.build();
		}

		@Bean
		DirectPrometheusFamilies restClientSizeFamilies(ControllerObservabilityProperties properties) {
			return () -> RestClientSizes.families(properties.kubernetes().client().metrics());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Operator.class, KubernetesClientImpl.class })
	static class OperatorConfiguration {

		@Bean
		@Lazy
		@ConditionalOnMissingBean
		ControllerRuntimeMetrics controllerRuntimeMetrics(MeterRegistry meterRegistry,
				ObjectProvider<PrometheusRegistry> prometheusRegistry, NamingPolicy naming, RecordingFailures failures,
				ControllerMetrics controllerMetrics, ControllerObservabilityProperties properties) {
			// Without a Prometheus registry the histograms are recorded but exported
			// nowhere. They carry management.metrics.tags as the counters beside them
			// do, which get them from a meter filter the histograms do not pass.
			return ControllerRuntimeMetrics
				.builder(meterRegistry, prometheusRegistry.getIfAvailable(PrometheusRegistry::new), failures)
				.disabledMetrics(naming.disabledMetrics())
				.constantLabels(naming.standardLabels())
				.objects(controllerMetrics)
				.resourceState(properties.kubernetes().resourceState().enabled())
				.build();
		}

		@Bean
		DirectPrometheusFamilies controllerRuntimeHistogramFamilies() {
			return () -> List.of(ControllerRuntimeHistograms.RECONCILE_TIME, ControllerRuntimeHistograms.QUEUE_DURATION,
					ControllerRuntimeHistograms.WORK_DURATION);
		}

		@Bean
		@Lazy
		@ConditionalOnMissingBean
		OperatorObservability operatorObservability(ControllerRuntimeMetrics metrics,
				KubernetesClientMetrics clientMetrics, ObjectProvider<KubernetesClient> client,
				LeaderElectionMetrics leaderElection) {
			return new OperatorObservability(metrics, clientMetrics, client::getIfUnique, leaderElection);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Operator.class, KubernetesClientImpl.class })
	@ConditionalOnBooleanProperty(ControllerObservabilityProperties.PREFIX + ".kubernetes.resource-state.enabled")
	static class ResourceStateConfiguration {

		@Bean
		MetricDefinition resourceStatusConditionMetric() {
			return ResourceStateMetrics.statusCondition();
		}

		@Bean
		MetricDefinition resourceGenerationMetric() {
			return ResourceStateMetrics.generation();
		}

		@Bean
		MetricDefinition resourceObservedGenerationMetric() {
			return ResourceStateMetrics.observedGeneration();
		}

		@Bean
		MetricDefinition resourceCreatedTimestampMetric() {
			return ResourceStateMetrics.createdTimestamp();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication
	static class WebhookConfiguration {

		@Bean
		@ConditionalOnMissingBean
		WebhookMetrics webhookMetrics(MeterRegistry meterRegistry,
				ObjectProvider<PrometheusRegistry> prometheusRegistry, NamingPolicy naming, RecordingFailures failures,
				ControllerObservabilityProperties properties) {
			KubernetesProperties.Webhooks webhooks = properties.kubernetes().webhooks();
			WebhookMetrics.Builder builder = WebhookMetrics
				.builder(meterRegistry, prometheusRegistry.getIfAvailable(PrometheusRegistry::new), failures)
				.disabledMetrics(naming.disabledMetrics())
				.constantLabels(naming.standardLabels());
			webhooks.admissionPaths().forEach(builder::admission);
			webhooks.conversionPaths().forEach(builder::conversion);
			try {
				return builder.build();
			}
			catch (InvalidSettingException ex) {
				throw InvalidObservabilityPropertyException.of(ex);
			}
		}

		@Bean
		DirectPrometheusFamilies webhookLatencyFamily() {
			return () -> List.of(WebhookFamilies.LATENCY);
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
		@ConditionalOnClass(org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping.class)
		static class ServletWebhookConfiguration {

			@Bean
			@ConditionalOnMissingBean
			WebhookServletFilter webhookServletFilter(WebhookMetrics metrics) {
				return new WebhookServletFilter(metrics);
			}

			@Bean
			ObservedWebhookHandlers observedWebhookServletHandlers(WebhookMetrics metrics,
					ObjectProvider<org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping> mappings) {
				return new ObservedWebhookHandlers(metrics, () -> mappings.orderedStream()
					.map(org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping::getHandlerMethods),
						org.springframework.web.servlet.mvc.method.RequestMappingInfo::getPatternValues);
			}

		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
		@ConditionalOnClass(org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping.class)
		static class ReactiveWebhookConfiguration {

			@Bean
			@ConditionalOnMissingBean
			WebhookWebFilter webhookWebFilter(WebhookMetrics metrics) {
				return new WebhookWebFilter(metrics);
			}

			@Bean
			ObservedWebhookHandlers observedWebhookReactiveHandlers(WebhookMetrics metrics,
					ObjectProvider<org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping> mappings) {
				return new ObservedWebhookHandlers(metrics, () -> mappings.orderedStream()
					.map(org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping::getHandlerMethods),
						(org.springframework.web.reactive.result.method.RequestMappingInfo info) -> info
							.getPatternsCondition()
							.getPatterns()
							.stream()
							.map(PathPattern::getPatternString)
							.toList());
			}

		}

	}

}
