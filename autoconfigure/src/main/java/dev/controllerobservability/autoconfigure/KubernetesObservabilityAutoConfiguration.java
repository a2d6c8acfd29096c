package dev.controllerobservability.autoconfigure;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;
import dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.kubernetes.process.StandardProcessMetrics;
import dev.controllerobservability.internal.metrics.RecordingFailures;

/**
 * Kubernetes metrics under their standard names: {@code leader_election_master_status}
 * always, the standard {@code process_*} metrics of Go controllers when
 * prometheus-metrics-instrumentation-jvm and a Prometheus registry are present, {@code rest_client_*} for fabric8 clients when fabric8 is present, and
 * {@code controller_runtime_*} / {@code workqueue_*} for Java Operator SDK operators when
 * the SDK is present. Turned off with
 * {@code controller.observability.kubernetes.enabled=false}.
 */
@AutoConfiguration(after = ControllerObservabilityAutoConfiguration.class)
@ConditionalOnBean(RecordingFailures.class)
@ConditionalOnBooleanProperty(name = ControllerObservabilityProperties.PREFIX + ".kubernetes.enabled",
		matchIfMissing = true)
public class KubernetesObservabilityAutoConfiguration {

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
		StandardProcessMetrics standardProcessMetrics(PrometheusRegistry prometheusRegistry) {
			StandardProcessMetrics metrics = new StandardProcessMetrics();
			prometheusRegistry.register(metrics);
			return metrics;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ KubernetesClient.class, KubernetesClientImpl.class })
	static class KubernetesClientConfiguration {

		@Bean
		@Lazy
		@ConditionalOnMissingBean
		KubernetesClientMetrics kubernetesClientMetrics(MeterRegistry meterRegistry, RecordingFailures failures) {
			return new KubernetesClientMetrics(meterRegistry, failures);
		}

		/**
		 * A client configured as fabric8 configures one by default (kubeconfig, or the
		 * pod's service account in a cluster), counted. Created when first needed (building
		 * one costs start-up time an application without Kubernetes calls should not pay),
		 * and it connects on first use only.
		 */
		@Bean(destroyMethod = "close")
		@Lazy
		@ConditionalOnMissingBean
		KubernetesClient kubernetesClient(KubernetesClientMetrics clientMetrics) {
			return clientMetrics.instrument(new KubernetesClientBuilder()).build();
		}

		@Bean
		static InstrumentingKubernetesClientPostProcessor instrumentingKubernetesClientPostProcessor(
				ObjectProvider<KubernetesClientMetrics> clientMetrics) {
			return new InstrumentingKubernetesClientPostProcessor(clientMetrics);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Operator.class, KubernetesClientImpl.class })
	static class OperatorConfiguration {

		@Bean
		@Lazy
		@ConditionalOnMissingBean
		ControllerRuntimeMetrics controllerRuntimeMetrics(MeterRegistry meterRegistry,
				ObjectProvider<PrometheusRegistry> prometheusRegistry, ControllerObservabilitySettings settings,
				RecordingFailures failures) {
			// Without a Prometheus registry the histograms are recorded but exported nowhere.
			return new ControllerRuntimeMetrics(meterRegistry, prometheusRegistry.getIfAvailable(PrometheusRegistry::new),
					settings.disabledMetrics(), failures);
		}

		@Bean
		@Lazy
		@ConditionalOnMissingBean
		OperatorObservability operatorObservability(ControllerRuntimeMetrics metrics,
				ObjectProvider<KubernetesClient> client, LeaderElectionMetrics leaderElection) {
			return new OperatorObservability(metrics, client::getIfUnique, leaderElection);
		}

	}

	/**
	 * Counts the calls of the application's own {@link KubernetesClient} beans: each is
	 * replaced by a client with the same configuration and connections whose calls are
	 * counted, and the replaced client is closed with its replacement. Clients of other
	 * types (such as an {@code OpenShiftClient}) are left as they are, with a log line
	 * saying how to count them.
	 */
	static final class InstrumentingKubernetesClientPostProcessor implements DestructionAwareBeanPostProcessor {

		private static final Logger logger = LoggerFactory.getLogger(InstrumentingKubernetesClientPostProcessor.class);

		private final ObjectProvider<KubernetesClientMetrics> clientMetrics;

		/** The application's clients by the counted clients that replaced them. */
		private final Map<Object, KubernetesClient> replaced = Collections.synchronizedMap(new IdentityHashMap<>());

		InstrumentingKubernetesClientPostProcessor(ObjectProvider<KubernetesClientMetrics> clientMetrics) {
			this.clientMetrics = clientMetrics;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (!(bean instanceof KubernetesClient client)) {
				return bean;
			}
			KubernetesClientMetrics metrics = this.clientMetrics.getIfAvailable();
			if (metrics == null) {
				return bean;
			}
			if (bean.getClass() != KubernetesClientImpl.class) {
				logger.info("Kubernetes client bean '{}' ({}) is not counted in rest_client_*; build it with "
						+ "KubernetesClientMetrics.instrument(builder) to count it", beanName, bean.getClass().getName());
				return bean;
			}
			// Re-registering the interceptor under its name replaces it: instrumenting twice counts once.
			KubernetesClient counted = metrics.instrument(client);
			this.replaced.put(counted, client);
			return counted;
		}

		@Override
		public boolean requiresDestruction(Object bean) {
			return this.replaced.containsKey(bean);
		}

		@Override
		public void postProcessBeforeDestruction(Object bean, String beanName) {
			KubernetesClient original = this.replaced.remove(bean);
			if (original != null) {
				original.close();
			}
		}

	}

}
