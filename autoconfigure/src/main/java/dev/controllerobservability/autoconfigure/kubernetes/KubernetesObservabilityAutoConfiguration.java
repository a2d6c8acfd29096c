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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.kubernetes.ControllerRuntimeHistograms;
import dev.controllerobservability.internal.kubernetes.RestClientSizes;
import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;
import dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.kubernetes.operator.ResourceStateMetrics;
import dev.controllerobservability.kubernetes.process.StandardProcessMetrics;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.DirectPrometheusFamilies;
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
 * record the {@link ResourceStateMetrics}, declared here. Turned off with
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

}
