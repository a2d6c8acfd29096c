package dev.controllerobservability.demo.kubernetes;

import java.util.HashMap;
import java.util.List;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.javaoperatorsdk.operator.Operator;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.demo.CloudProvider;
import dev.controllerobservability.demo.DemoProperties;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * The demo's kubernetes mode ({@code demo.mode=kubernetes}): a Java Operator SDK operator
 * reconciling {@code Provisioner} resources and their pending pods. Its Kubernetes client
 * is the starter's (kubeconfig or service account), or, with
 * {@code demo.kubernetes.api-server=embedded} (the default), a client of the fabric8 mock
 * API server started in-process, where pods keep arriving as in the simulation.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "demo.mode", havingValue = "kubernetes")
@Import(KubernetesMode.EmbeddedApiServer.class)
public class KubernetesMode {

	@Bean
	ProvisionerReconciler provisionerReconciler(KubernetesClient client, ControllerOperations operations,
			CloudProvider cloud, ControllerMetrics metrics) {
		return new ProvisionerReconciler(client, operations, cloud, metrics);
	}

	@Bean
	OperatorLifecycle operatorLifecycle(OperatorObservability observability, ProvisionerReconciler reconciler,
			DemoProperties properties) {
		// The mock API server has no server-side apply; a real one patches status with it.
		boolean serverSideApply = properties.getKubernetes()
			.getApiServer() != DemoProperties.Kubernetes.ApiServer.EMBEDDED;
		return new OperatorLifecycle(observability, reconciler, serverSideApply);
	}

	/**
	 * The fabric8 mock API server in CRUD mode, and a client of it, which the starter
	 * counts like any client bean. Imported, not scanned, so that it exists only in the
	 * kubernetes mode.
	 */
	@ConditionalOnProperty(name = "demo.kubernetes.api-server", havingValue = "embedded", matchIfMissing = true)
	static class EmbeddedApiServer {

		@Bean(destroyMethod = "destroy")
		KubernetesMockServer kubernetesMockServer() {
			KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
					new KubernetesCrudDispatcher(
							List.of(CustomResourceDefinitionContext.fromCustomResourceType(ProvisionerResource.class))),
					false);
			server.init();
			return server;
		}

		@Bean(destroyMethod = "close")
		KubernetesClient kubernetesClient(KubernetesMockServer server) {
			return server.createClient();
		}

		@Bean
		PodArrivals podArrivals(KubernetesClient client, DemoProperties properties) {
			return new PodArrivals(client, properties);
		}

	}

	/**
	 * Starts the operator with the application and stops it first on shutdown.
	 */
	static class OperatorLifecycle implements SmartLifecycle {

		/** Ahead of the web server's graceful shutdown, so metrics stay scrapeable meanwhile. */
		static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

		private final OperatorObservability observability;

		private final ProvisionerReconciler reconciler;

		private final boolean serverSideApply;

		private volatile Operator operator;

		OperatorLifecycle(OperatorObservability observability, ProvisionerReconciler reconciler,
				boolean serverSideApply) {
			this.observability = observability;
			this.reconciler = reconciler;
			this.serverSideApply = serverSideApply;
		}

		@Override
		public void start() {
			Operator operator = new Operator(this.observability
				.andThen((overrider) -> overrider.withUseSSAToPatchPrimaryResource(this.serverSideApply)));
			operator.register(this.reconciler);
			operator.start();
			this.operator = operator;
		}

		@Override
		public void stop() {
			Operator operator = this.operator;
			if (operator != null) {
				operator.stop();
				this.operator = null;
			}
		}

		@Override
		public boolean isRunning() {
			return this.operator != null;
		}

		@Override
		public int getPhase() {
			return PHASE;
		}

	}

}
