package dev.controllerobservability.demo.kubernetes;

import java.net.HttpURLConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.demo.CloudProvider;
import dev.controllerobservability.demo.DemoProperties;
import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * The demo's kubernetes mode ({@code demo.mode=kubernetes}): a Java Operator SDK operator
 * reconciling {@code Provisioner} resources and their pending pods. Its Kubernetes
 * client, built through the starter's {@link KubernetesClientMetrics} so that its calls
 * are counted, is configured as fabric8 configures one by default (kubeconfig or service
 * account) with {@code demo.kubernetes.api-server=kubeconfig}, or, with
 * {@code demo.kubernetes.api-server=embedded} (the default), a client of the fabric8 mock
 * API server started in-process, which holds the configured provisioners before the
 * operator starts and where pods keep arriving as in the simulation. The operator runs a
 * leader election on the lease {@value #LEASE_NAME}, so
 * {@code leader_election_master_status} shows whether it leads.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "demo.mode", havingValue = "kubernetes")
@Import(KubernetesMode.EmbeddedApiServer.class)
public class KubernetesMode {

	/** The lease the operator's replicas elect their leader with. */
	public static final String LEASE_NAME = "provisioner-demo";

	@Bean(destroyMethod = "close")
	@ConditionalOnProperty(name = "demo.kubernetes.api-server", havingValue = "kubeconfig")
	KubernetesClient kubernetesClient(KubernetesClientMetrics clientMetrics) {
		return clientMetrics.instrument(new KubernetesClientBuilder()).build();
	}

	@Bean
	ProvisionerReconciler provisionerReconciler(KubernetesClient client, ControllerOperations operations,
			CloudProvider cloud, ControllerMetrics metrics) {
		return new ProvisionerReconciler(client, operations, cloud, metrics);
	}

	@Bean
	OperatorLifecycle operatorLifecycle(OperatorObservability observability, ProvisionerReconciler reconciler,
			DemoProperties properties) {
		DemoProperties.Kubernetes kubernetes = properties.getKubernetes();
		// A mock API server has no server-side apply; a real one patches status with it.
		Boolean serverSideApply = kubernetes.getServerSideApply();
		if (serverSideApply == null) {
			serverSideApply = kubernetes.getApiServer() != DemoProperties.Kubernetes.ApiServer.EMBEDDED;
		}
		// As a Go controller's manager does, the operator reconciles only while it leads;
		// losing the lease stops it.
		DemoProperties.Kubernetes.LeaderElection timings = kubernetes.getLeaderElection();
		LeaderElectionConfiguration election = LeaderElectionConfigurationBuilder
			.aLeaderElectionConfiguration(LEASE_NAME)
			.withLeaseNamespace(kubernetes.getNamespace())
			.withLeaseDuration(timings.getLeaseDuration())
			.withRenewDeadline(timings.getRenewDeadline())
			.withRetryPeriod(timings.getRetryPeriod())
			.withExitOnStopLeading(false)
			.build();
		return new OperatorLifecycle(observability, reconciler, serverSideApply, observability.observed(election));
	}

	/**
	 * The fabric8 mock API server in CRUD mode, and a client of it, which the starter
	 * counts like any client bean. Imported, not scanned, so that it exists only in the
	 * kubernetes mode. The server answers the SDK's lease permission check as the recipe
	 * in {@code docs/without-spring.md} ("Leader election on the mock API server") shows,
	 * with the demo's custom resource added.
	 */
	@ConditionalOnProperty(name = "demo.kubernetes.api-server", havingValue = "embedded", matchIfMissing = true)
	static class EmbeddedApiServer {

		/**
		 * What the SDK's permission check finds: this identity may do anything with
		 * leases.
		 */
		static final String LEASE_PERMISSIONS = """
				{"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview",
				 "status": {"resourceRules": [{"apiGroups": ["coordination.k8s.io"], "resources": ["leases"],
				                               "verbs": ["*"]}]}}""";

		@Bean(destroyMethod = "destroy")
		KubernetesMockServer kubernetesMockServer(DemoProperties properties) {
			Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
			KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
					new KubernetesMixedDispatcher(responses,
							List.of(CustomResourceDefinitionContext.fromCustomResourceType(ProvisionerResource.class))),
					false);
			// The permission check the SDK makes before it runs for leader; a real API
			// server answers from RBAC.
			server.expect()
				.post()
				.withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
				.andReturn(HttpURLConnection.HTTP_CREATED, LEASE_PERMISSIONS)
				.always();
			server.init();
			// As in a cluster, the provisioners exist before the operator starts: its
			// initial list holds them, so they wait at workqueue_depth{priority="-100"}
			// as the objects of a Go controller's initial list do.
			try (KubernetesClient client = server.createClient()) {
				PodArrivals.createProvisioners(client, properties);
			}
			return server;
		}

		@Bean(destroyMethod = "close")
		KubernetesClient kubernetesClient(KubernetesMockServer server, KubernetesClientMetrics clientMetrics) {
			return clientMetrics.instrument(server.createClient());
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

		/**
		 * Ahead of the web server's graceful shutdown, so metrics stay scrapeable
		 * meanwhile.
		 */
		static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

		private final OperatorObservability observability;

		private final ProvisionerReconciler reconciler;

		private final boolean serverSideApply;

		private final LeaderElectionConfiguration election;

		private volatile Operator operator;

		OperatorLifecycle(OperatorObservability observability, ProvisionerReconciler reconciler,
				boolean serverSideApply, LeaderElectionConfiguration election) {
			this.observability = observability;
			this.reconciler = reconciler;
			this.serverSideApply = serverSideApply;
			this.election = election;
		}

		@Override
		public void start() {
			Operator operator = new Operator(this.observability
				.andThen((overrider) -> overrider.withUseSSAToPatchPrimaryResource(this.serverSideApply)
					.withLeaderElectionConfiguration(this.election)));
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
