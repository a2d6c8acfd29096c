package dev.controllerobservability.kubernetes.operator;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An operator on the fabric8 mock API server records the resource state of a Gadget its
 * reconciler marks ready, and of later status-only updates, from the resources the SDK
 * and its informer hand over: recording makes no API call, counted by
 * {@code rest_client_requests_total} of the operator's client. Deleting the Gadget
 * removes its series.
 */
class ResourceStateOperatorTests {

	private static final Map<String, String> GADGET = Map.of("kind", "Gadget", "namespace", "default", "name", "a");

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

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

	@Test
	void recordsResourceStateWithoutAnApiCallAndForgetsADeletedResource() {
		ControllerObservability.Builder builder = ControllerObservability.builder(this.registry).namespace("shop");
		ResourceStateMetrics.definitions().forEach(builder::metric);
		ControllerObservability observability = builder.build();
		KubernetesClientMetrics clientMetrics = new KubernetesClientMetrics(this.registry, observability.failures());
		KubernetesClient client = clientMetrics
			.instrument(new KubernetesClientBuilder().withConfig(this.server.createClient().getConfiguration()))
			.build();
		ControllerRuntimeMetrics metrics = ControllerRuntimeMetrics
			.builder(this.registry, this.registry.getPrometheusRegistry(), observability.failures())
			.objects(observability.metrics())
			.resourceState(true)
			.build();
		// The mock API server has no server-side apply.
		Operator operator = new Operator(
				new OperatorObservability(metrics, () -> client, new LeaderElectionMetrics(this.registry))
					.andThen((overrider) -> overrider.withUseSSAToPatchPrimaryResource(false)));
		operator.register(new GadgetReconciler());
		operator.start();
		try (KubernetesClient user = this.server.createClient()) {
			user.resource(Gadget.named("a", 1)).create();
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				PrometheusScrape scrape = scrape();
				assertThat(scrape.value("shop_resource_status_condition", condition("True"))).isEqualTo(1.0);
				assertThat(scrape.value("shop_resource_observed_generation", GADGET)).isEqualTo(1.0);
				assertThat(scrape.value("shop_resource_generation", GADGET)).isEqualTo(1.0);
			});
			double requests = requests();
			// The SDK hands a changed resource over: its state is read from it alone.
			Gadget notReady = user.resources(Gadget.class).inNamespace("default").withName("a").get();
			notReady.withStatus(1L, "Ready", "False");
			// A changed resource has a version of its own.
			notReady.getMetadata().setResourceVersion(notReady.getMetadata().getResourceVersion() + "-changed");
			Map<String, Object> metadata = Map.of(Constants.CONTROLLER_NAME, "gadget", Constants.RESOURCE_GVK_KEY,
					new GroupVersionKind("test.controllerobservability.dev", "v1", "Gadget"));
			metrics.receivedEvent(new ResourceEvent(ResourceAction.UPDATED, new ResourceID("a", "default"), notReady),
					metadata);
			assertThat(scrape().value("shop_resource_status_condition", condition("False"))).isEqualTo(1.0);
			// A status-only update, which the SDK's generation filter keeps from the
			// reconciler, reaches the metrics through the controller's informer.
			Gadget unknown = user.resources(Gadget.class).inNamespace("default").withName("a").get();
			unknown.withStatus(1L, "Ready", "Unknown");
			user.resource(unknown).updateStatus();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(scrape().value("shop_resource_status_condition", condition("Unknown")))
					.isEqualTo(1.0));
			assertThat(requests()).isEqualTo(requests);

			user.resources(Gadget.class).inNamespace("default").withName("a").delete();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(observability.metrics().liveObjects()).isZero());
			assertThat(scrape().samples("shop_resource_status_condition")).isEmpty();
			assertThat(observability.failures().count()).isZero();
		}
		finally {
			operator.stop();
			client.close();
		}
	}

	private double requests() {
		return scrape().samples("rest_client_requests_total")
			.stream()
			.mapToDouble(PrometheusScrape.Sample::value)
			.sum();
	}

	private static Map<String, String> condition(String status) {
		Map<String, String> labels = new HashMap<>(GADGET);
		labels.put("type", "Ready");
		labels.put("status", status);
		return labels;
	}

	private PrometheusScrape scrape() {
		return PrometheusScrape.parse(this.registry.scrape());
	}

	/** Marks each Gadget ready at its generation. */
	@ControllerConfiguration(name = "gadget")
	static final class GadgetReconciler implements Reconciler<Gadget> {

		@Override
		public UpdateControl<Gadget> reconcile(Gadget gadget, Context<Gadget> context) {
			if (gadget.getStatus() != null
					&& gadget.getMetadata().getGeneration().equals(gadget.getStatus().getObservedGeneration())) {
				return UpdateControl.noUpdate();
			}
			gadget.withStatus(gadget.getMetadata().getGeneration(), "Ready", "True");
			return UpdateControl.patchStatus(gadget);
		}

	}

}
