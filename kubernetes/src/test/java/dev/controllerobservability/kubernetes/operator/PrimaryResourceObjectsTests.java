package dev.controllerobservability.kubernetes.operator;

import java.util.Map;

import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The SDK's callbacks forget a deleted primary resource in every per-object metric, and
 * record its state from the resource object they carry.
 */
class PrimaryResourceObjectsTests {

	private static final Map<String, Object> METADATA = Map.of(Constants.CONTROLLER_NAME, "gadget",
			Constants.RESOURCE_GVK_KEY, new GroupVersionKind("test.controllerobservability.dev", "v1", "Gadget"));

	private static final ObjectRef A = ObjectRef.of("Gadget", "default", "a");

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final ControllerObservability observability = observability(true);

	private final ControllerRuntimeMetrics metrics = ControllerRuntimeMetrics
		.builder(this.registry, new PrometheusRegistry(), this.observability.failures())
		.objects(this.observability.metrics())
		.resourceState(true)
		.build();

	private ControllerObservability observability(boolean resourceState) {
		ControllerObservability.Builder builder = ControllerObservability.builder(this.registry)
			.namespace("shop")
			.metric(MetricDefinition.gauge("gadget_parts").help("Parts of a gadget.").perObjectWithKind().build());
		if (resourceState) {
			ResourceStateMetrics.definitions().forEach(builder::metric);
		}
		return builder.build();
	}

	@Test
	void forgetsAPrimaryResourceOnItsDeletedEventButNotOnASecondaryResourcesEvent() {
		this.observability.metrics().gauge("gadget_parts", A).set(3);
		this.observability.metrics().gauge("gadget_parts", ObjectRef.of("Widget", "default", "a")).set(5);
		this.metrics.receivedEvent(new Event(new ResourceID("a", "default")), METADATA);
		assertThat(scrape().value("shop_gadget_parts", labels("Gadget"))).isEqualTo(3.0);
		this.metrics.receivedEvent(
				new ResourceEvent(ResourceAction.DELETED, new ResourceID("a", "default"), Gadget.named("a", 1)),
				METADATA);
		assertThat(scrape().samples("shop_gadget_parts")).extracting(PrometheusScrape.Sample::labels)
			.containsExactly(labels("Widget"));
		assertThat(this.observability.failures().count()).isZero();
	}

	@Test
	void refusesResourceStateForACatalogThatDoesNotDeclareIt() {
		ControllerObservability without = observability(false);
		assertThatIllegalStateException()
			.isThrownBy(
					() -> ControllerRuntimeMetrics.builder(this.registry, new PrometheusRegistry(), without.failures())
						.objects(without.metrics())
						.resourceState(true)
						.build())
			.withMessageContaining("does not declare")
			.withMessageContaining("ControllerObservability.Builder.metric(…)");
	}

	@Test
	void forgetsAgainWhatAReconciliationRecordsAfterItsResourceWasDeleted() {
		Gadget gadget = Gadget.named("a", 1);
		this.metrics.reconciliationExecutionStarted(gadget, METADATA);
		this.observability.metrics().gauge("gadget_parts", A).set(3);
		this.metrics.receivedEvent(new ResourceEvent(ResourceAction.DELETED, new ResourceID("a", "default"), gadget),
				METADATA);
		// The reconciliation still running records once more before it ends.
		this.observability.metrics().gauge("gadget_parts", A).set(4);
		assertThat(scrape().value("shop_gadget_parts", labels("Gadget"))).isEqualTo(4.0);
		this.metrics.reconciliationExecutionFinished(gadget, METADATA);
		assertThat(scrape().samples("shop_gadget_parts")).isEmpty();
		// A resource of that name created later is recorded and kept as any other.
		Gadget again = Gadget.named("a", 1);
		this.metrics.reconciliationExecutionStarted(again, METADATA);
		this.observability.metrics().gauge("gadget_parts", A).set(5);
		this.metrics.reconciliationExecutionFinished(again, METADATA);
		assertThat(scrape().value("shop_gadget_parts", labels("Gadget"))).isEqualTo(5.0);
		assertThat(this.observability.failures().count()).isZero();
	}

	@Test
	void forgetsAResourceWhoseCleanupIsDoneWithTheKindOfTheControllersResource() {
		this.observability.metrics().gauge("gadget_parts", A).set(3);
		this.observability.metrics().gauge("gadget_parts", ObjectRef.of("Widget", "default", "a")).set(5);
		this.metrics.cleanupDoneFor(new ResourceID("a", "default"), METADATA);
		assertThat(scrape().samples("shop_gadget_parts")).extracting(PrometheusScrape.Sample::labels)
			.containsExactly(labels("Widget"));
	}

	@Test
	void readsEachVersionOfAResourceOnce() {
		Gadget first = Gadget.named("a", 3).withStatus(2L, "Ready", "True");
		first.getMetadata().setResourceVersion("7");
		this.metrics.receivedEvent(new ResourceEvent(ResourceAction.ADDED, new ResourceID("a", "default"), first),
				METADATA);
		this.observability.metrics().gauge("resource_observed_generation", A).set(99);
		// The same version again, as the reconciliation hands it over: not read again.
		this.metrics.reconcileCustomResource(first, null, METADATA);
		assertThat(scrape().value("shop_resource_observed_generation", labels("Gadget"))).isEqualTo(99.0);
		Gadget next = Gadget.named("a", 3).withStatus(3L, "Ready", "True");
		next.getMetadata().setResourceVersion("8");
		this.metrics.reconcileCustomResource(next, null, METADATA);
		assertThat(scrape().value("shop_resource_observed_generation", labels("Gadget"))).isEqualTo(3.0);
		// A deleted resource created again with a version seen before is read again.
		this.metrics.receivedEvent(new ResourceEvent(ResourceAction.DELETED, new ResourceID("a", "default"), next),
				METADATA);
		this.metrics.receivedEvent(new ResourceEvent(ResourceAction.ADDED, new ResourceID("a", "default"), next),
				METADATA);
		assertThat(scrape().value("shop_resource_observed_generation", labels("Gadget"))).isEqualTo(3.0);
	}

	@Test
	void recordsConditionsGenerationsAndCreationTimeFromTheResource() {
		Gadget gadget = Gadget.named("a", 3).withStatus(2L, "Ready", "False", "Synced", "True");
		this.metrics.receivedEvent(new ResourceEvent(ResourceAction.ADDED, new ResourceID("a", "default"), gadget),
				METADATA);
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("shop_resource_generation", labels("Gadget"))).isEqualTo(3.0);
		assertThat(scrape.value("shop_resource_observed_generation", labels("Gadget"))).isEqualTo(2.0);
		assertThat(scrape.value("shop_resource_created_timestamp_seconds", labels("Gadget"))).isEqualTo(1767323045.0);
		assertThat(condition(scrape, "Ready", "True")).isEqualTo(0.0);
		assertThat(condition(scrape, "Ready", "False")).isEqualTo(1.0);
		assertThat(condition(scrape, "Ready", "Unknown")).isEqualTo(0.0);
		assertThat(condition(scrape, "Synced", "True")).isEqualTo(1.0);
		assertThat(scrape.samples("shop_resource_status_condition")).hasSize(6);

		this.metrics.reconcileCustomResource(Gadget.named("a", 3).withStatus(3L, "Ready", "True"), null, METADATA);
		scrape = scrape();
		assertThat(scrape.value("shop_resource_observed_generation", labels("Gadget"))).isEqualTo(3.0);
		assertThat(condition(scrape, "Ready", "True")).isEqualTo(1.0);
		assertThat(condition(scrape, "Ready", "False")).isEqualTo(0.0);
		assertThat(scrape.samples("shop_resource_status_condition")).as("Synced went away")
			.extracting((sample) -> sample.labels().get("type"))
			.containsOnly("Ready")
			.hasSize(3);

		this.metrics.receivedEvent(
				new ResourceEvent(ResourceAction.DELETED, new ResourceID("a", "default"), Gadget.named("a", 3)),
				METADATA);
		assertThat(this.observability.metrics().liveObjects()).isZero();
		assertThat(scrape().samples("shop_resource_status_condition")).isEmpty();
		assertThat(scrape().samples("shop_resource_generation")).isEmpty();
		assertThat(this.observability.failures().count()).isZero();
	}

	@Test
	void recordsTheGenerationAloneForAResourceWithoutStatus() {
		this.metrics.receivedEvent(
				new ResourceEvent(ResourceAction.ADDED, new ResourceID("a", "default"), Gadget.named("a", 1)),
				METADATA);
		this.metrics.finishedReconciliation(Gadget.named("a", 1).withStatus(null), METADATA);
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("shop_resource_generation", labels("Gadget"))).isEqualTo(1.0);
		assertThat(scrape.samples("shop_resource_observed_generation")).isEmpty();
		assertThat(scrape.samples("shop_resource_status_condition")).isEmpty();
		assertThat(this.observability.failures().count()).isZero();
	}

	@Test
	void leavesAResourceMarkedForDeletionToItsCleanup() {
		Gadget deleting = Gadget.named("a", 1);
		deleting.getMetadata().setDeletionTimestamp("2026-01-02T03:04:05Z");
		this.metrics.reconcileCustomResource(deleting, null, METADATA);
		assertThat(scrape().samples("shop_resource_generation")).isEmpty();
	}

	@Test
	void forgetsNothingWhenBuiltWithoutTheCatalog() {
		this.observability.metrics().gauge("gadget_parts", A).set(3);
		ControllerRuntimeMetrics withoutCatalog = new ControllerRuntimeMetrics(this.registry, new PrometheusRegistry(),
				this.observability.failures());
		withoutCatalog.cleanupDoneFor(new ResourceID("a", "default"), METADATA);
		assertThat(scrape().value("shop_gadget_parts", labels("Gadget"))).isEqualTo(3.0);
	}

	@Test
	void refusesResourceStateWithoutTheCatalog() {
		assertThatIllegalStateException()
			.isThrownBy(() -> ControllerRuntimeMetrics
				.builder(this.registry, new PrometheusRegistry(), this.observability.failures())
				.resourceState(true)
				.build())
			.withMessageContaining("ResourceStateMetrics.definitions()");
	}

	private static double condition(PrometheusScrape scrape, String type, String status) {
		Map<String, String> labels = new java.util.HashMap<>(labels("Gadget"));
		labels.put("type", type);
		labels.put("status", status);
		return scrape.value("shop_resource_status_condition", labels);
	}

	private static Map<String, String> labels(String kind) {
		return Map.of("kind", kind, "namespace", "default", "name", "a");
	}

	private PrometheusScrape scrape() {
		return PrometheusScrape.parse(this.registry.scrape());
	}

}
