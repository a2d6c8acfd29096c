package dev.controllerobservability.kubernetes;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.micrometer.core.instrument.Tags;
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
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Core and kubernetes wired with {@code new} in a Java Operator SDK operator, run on the
 * fabric8 mock API server with no Spring on the class path. The operator
 * {@code docs/without-spring.md} walks through, with leader election, process metrics,
 * lint and reference, is the {@code examples/plain-java-operator} module.
 */
class WithoutSpringTests {

	private KubernetesMockServer server;

	@BeforeEach
	void startApiServer() {
		this.server = new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new MockWebServer(),
				new HashMap<>(), new KubernetesCrudDispatcher(List.of()), false);
		this.server.init();
	}

	@AfterEach
	void stopApiServer() {
		this.server.destroy();
	}

	/** What the documented {@code main()} does, on the given API server. */
	static Operator start(Config apiServer, PrometheusMeterRegistry registry) {
		ControllerObservability observability = ControllerObservability.builder(registry)
			.namespace("widgets")
			.operationTags("kind")
			.build();
		KubernetesClientMetrics clientMetrics = new KubernetesClientMetrics(registry, observability.failures());
		KubernetesClient client = clientMetrics.instrument(new KubernetesClientBuilder().withConfig(apiServer)).build();
		ControllerRuntimeMetrics runtimeMetrics = new ControllerRuntimeMetrics(registry,
				registry.getPrometheusRegistry(), observability.disabledMetrics(), observability.failures());
		Operator operator = new Operator(
				new OperatorObservability(runtimeMetrics, () -> client, new LeaderElectionMetrics(registry)));
		operator.register(new ConfigMapReconciler(observability.operations()));
		operator.start();
		return operator;
	}

	@Test
	void operatorWiredWithNewRecordsOperationsControllerRuntimeAndClientMetrics() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		Operator operator = start(this.server.createClient().getConfiguration(), registry);
		try {
			createConfigMap(this.server);
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(scrape(registry).value("widgets_apply_duration_seconds_count",
						Map.of("kind", "ConfigMap", "result", "success", "error", "none")))
					.isEqualTo(1.0));
		}
		finally {
			operator.stop();
		}
		PrometheusScrape scrape = scrape(registry);
		assertThat(scrape.value("controller_runtime_reconcile_total",
				Map.of("controller", "configmaps", "result", "success")))
			.isEqualTo(1.0);
		assertThat(scrape.value("widgets_apply_in_flight", Map.of("kind", "ConfigMap"))).isEqualTo(0.0);
		assertThat(scrape.samples("rest_client_requests_total")).isNotEmpty();
	}

	@Test
	void classPathHoldsNoSpring() {
		assertThatExceptionOfType(ClassNotFoundException.class).isThrownBy(
				() -> Class.forName("org.springframework.core.SpringVersion", false, getClass().getClassLoader()));
	}

	/** Creates the ConfigMap {@code default/settings} the reconciler then times. */
	static void createConfigMap(KubernetesMockServer server) {
		try (KubernetesClient client = server.createClient()) {
			client
				.resource(new ConfigMapBuilder().withNewMetadata()
					.withName("settings")
					.withNamespace("default")
					.endMetadata()
					.build())
				.create();
		}
	}

	private static PrometheusScrape scrape(PrometheusMeterRegistry registry) {
		return PrometheusScrape.parse(registry.scrape());
	}

	/** Times its work as the {@code apply} operation, tagged with the resource's kind. */
	@ControllerConfiguration(name = "configmaps")
	static final class ConfigMapReconciler implements Reconciler<ConfigMap> {

		private final ControllerOperations operations;

		ConfigMapReconciler(ControllerOperations operations) {
			this.operations = operations;
		}

		@Override
		public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
			this.operations.observe("apply", Tags.of("kind", resource.getKind()), () -> {
			});
			return UpdateControl.noUpdate();
		}

	}

}
