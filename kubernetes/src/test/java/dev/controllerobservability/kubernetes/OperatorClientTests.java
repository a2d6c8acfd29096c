package dev.controllerobservability.kubernetes;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;
import dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which client an operator configured through {@link OperatorObservability} talks
 * through, and that its calls are counted while the application's client is not.
 */
class OperatorClientTests {

	private KubernetesMockServer server;

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private ControllerObservability observability;

	@BeforeEach
	void startApiServer() {
		this.server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(),
				new HashMap<>(), new KubernetesCrudDispatcher(List.of()), false);
		this.server.init();
		this.observability = ControllerObservability.builder(this.registry).operationTags("kind").build();
	}

	@AfterEach
	void stopApiServer() {
		this.server.destroy();
	}

	@Test
	void countsTheOperatorsCallsThroughACopyAndLeavesTheApplicationsClientUncounted() {
		try (KubernetesClient application = this.server.createClient()) {
			runOperator(application);
			application.configMaps().inNamespace("default").list();
			double operatorCalls = requests();
			assertThat(operatorCalls).isPositive();
			application.configMaps().inNamespace("default").list();
			assertThat(requests()).isEqualTo(operatorCalls);
		}
	}

	@Test
	void countsTheCallsOfTheDefaultClientItBuildsWithoutOneOfTheApplication() {
		Config apiServer = this.server.createClient().getConfiguration();
		Map<String, String> properties = Map.of(Config.KUBERNETES_MASTER_SYSTEM_PROPERTY, apiServer.getMasterUrl(),
				Config.KUBERNETES_AUTH_TRYKUBECONFIG_SYSTEM_PROPERTY, "false",
				Config.KUBERNETES_AUTH_TRYSERVICEACCOUNT_SYSTEM_PROPERTY, "false",
				Config.KUBERNETES_NAMESPACE_SYSTEM_PROPERTY, "default");
		properties.forEach(System::setProperty);
		try {
			runOperator(null);
			assertThat(requests()).isPositive();
		}
		finally {
			properties.keySet().forEach(System::clearProperty);
		}
	}

	private void runOperator(KubernetesClient application) {
		KubernetesClientMetrics clientMetrics = new KubernetesClientMetrics(this.registry,
				this.observability.failures());
		ControllerRuntimeMetrics runtimeMetrics = new ControllerRuntimeMetrics(this.registry,
				this.registry.getPrometheusRegistry(), this.observability.failures());
		Operator operator = new Operator(new OperatorObservability(runtimeMetrics, clientMetrics, () -> application,
				new LeaderElectionMetrics(this.registry)));
		operator.register(new WithoutSpringTests.ConfigMapReconciler(this.observability.operations()));
		operator.start();
		try {
			WithoutSpringTests.createConfigMap(this.server);
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(PrometheusScrape.parse(this.registry.scrape())
					.value("controller_runtime_reconcile_total",
							Map.of("controller", "configmaps", "result", "success")))
					.isEqualTo(1.0));
		}
		finally {
			operator.stop();
		}
	}

	private double requests() {
		return PrometheusScrape.parse(this.registry.scrape())
			.samples("rest_client_requests_total")
			.stream()
			.mapToDouble(PrometheusScrape.Sample::value)
			.sum();
	}

}
