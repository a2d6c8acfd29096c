package dev.controllerobservability.benchmarks.operator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * An existing Java Operator SDK controller to which the starter is added: a
 * {@link ConfigMapReconciler} on a fabric8 client of the fabric8 mock API server (no
 * cluster needed), Spring MVC, Actuator and the Prometheus registry. Its code uses
 * nothing of the starter; its {@code operator-application.yaml} declares operations,
 * catalog metrics and rules, as the controller's configuration would once the starter is
 * added. The start-up comparison runs it twice on the same class path with the same
 * configuration: as it is ({@code starter}), and with the starter's auto-configurations
 * excluded ({@code without-starter}), which then ignores the starter's properties.
 */
@SpringBootApplication
public class OperatorApplication {

	/**
	 * The starter's auto-configurations, excluded in the run without the starter: every
	 * one its imports file lists, so that one added later is excluded too.
	 */
	static List<String> starterAutoConfigurations() {
		return ImportCandidates.load(AutoConfiguration.class, OperatorApplication.class.getClassLoader())
			.getCandidates()
			.stream()
			.filter((name) -> name.startsWith("dev.controllerobservability."))
			.toList();
	}

	/**
	 * Starts the controller on a free port.
	 * @param withStarter whether the starter's auto-configurations take part
	 * @return the started context
	 */
	public static ConfigurableApplicationContext start(boolean withStarter) {
		String excluded = withStarter ? "" : String.join(",", starterAutoConfigurations());
		return SpringApplication.run(OperatorApplication.class, "--spring.config.name=operator-application",
				"--spring.autoconfigure.exclude=" + excluded);
	}

	@Bean(destroyMethod = "destroy")
	KubernetesMockServer kubernetesMockServer() {
		Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
		KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
				new KubernetesMixedDispatcher(responses), false);
		server.init();
		return server;
	}

	@Bean(destroyMethod = "close")
	KubernetesClient kubernetesClient(KubernetesMockServer server) {
		KubernetesClient client = server.createClient();
		client
			.resource(new ConfigMapBuilder().withNewMetadata()
				.withName("settings")
				.withNamespace("default")
				.endMetadata()
				.addToData("mode", "demo")
				.build())
			.create();
		return client;
	}

	@Bean
	ConfigMapReconciler configMapReconciler(MeterRegistry registry) {
		return new ConfigMapReconciler(registry);
	}

	/**
	 * The operator, started with the application, its informers synced before the
	 * application is ready, and stopped on shutdown.
	 */
	@Bean(initMethod = "start", destroyMethod = "stop")
	Operator operator(KubernetesClient client, ConfigMapReconciler reconciler) {
		Operator operator = new Operator((overrider) -> overrider.withKubernetesClient(client)
			.withCloseClientOnStop(false)
			.withStopOnInformerErrorDuringStartup(true));
		operator.register(reconciler);
		return operator;
	}

}
