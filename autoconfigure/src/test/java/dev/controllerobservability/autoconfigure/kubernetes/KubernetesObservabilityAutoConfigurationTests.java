package dev.controllerobservability.autoconfigure.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.system.SystemMetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.test.ControllerExecutions;
import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;
import dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.kubernetes.process.StandardProcessMetrics;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RuleSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the Kubernetes auto-configuration provides with and without fabric8 and the Java
 * Operator SDK on the classpath.
 */
class KubernetesObservabilityAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = KubernetesContextRunner
		.with(SimpleMetricsExportAutoConfiguration.class);

	@Test
	void configuresClientOperatorAndLeaderElectionMetricsWhenTheLibrariesArePresent() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(KubernetesClientMetrics.class);
			assertThat(context).doesNotHaveBean(KubernetesClient.class);
			assertThat(context).hasSingleBean(ControllerRuntimeMetrics.class);
			assertThat(context).hasSingleBean(OperatorObservability.class);
			assertThat(context).hasSingleBean(LeaderElectionMetrics.class);
		});
	}

	@Test
	void configuresNothingOfFabric8OrTheOperatorSdkWithoutThem() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.fabric8", "io.javaoperatorsdk"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean("kubernetesClientMetrics");
				assertThat(context).doesNotHaveBean("kubernetesClient");
				assertThat(context).doesNotHaveBean("controllerRuntimeMetrics");
				assertThat(context).doesNotHaveBean("operatorObservability");
				// Leader election status needs neither library: any election hook can set
				// it.
				LeaderElectionMetrics leaderElection = context.getBean(LeaderElectionMetrics.class);
				leaderElection.leading("provisioner");
				assertThat(context.getBean(MeterRegistry.class)
					.get("leader.election.master.status")
					.tag("name", "provisioner")
					.gauge()
					.value()).isEqualTo(1.0);
			});
	}

	@Test
	void configuresTheClientButNoOperatorMetricsWithoutTheOperatorSdk() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Operator.class)).run((context) -> {
			assertThat(context).hasSingleBean(KubernetesClientMetrics.class);
			assertThat(context).doesNotHaveBean("controllerRuntimeMetrics");
			assertThat(context).doesNotHaveBean("operatorObservability");
		});
	}

	@Test
	void addsTheStandardProcessMetricsOnlyWithAPrometheusRegistry() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(StandardProcessMetrics.class));
		KubernetesContextRunner.with(PrometheusMetricsExportAutoConfiguration.class)
			.withConfiguration(AutoConfigurations.of(SystemMetricsAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(StandardProcessMetrics.class);
				List<String> families = new ArrayList<>();
				context.getBean(PrometheusRegistry.class)
					.scrape()
					.forEach((snapshot) -> families.add(snapshot.getMetadata().getPrometheusName()));
				assertThat(families)
					.contains("process_cpu_seconds", "process_resident_memory_bytes", "process_virtual_memory_bytes",
							"process_open_fds", "process_max_fds")
					.containsOnlyOnce("process_start_time_seconds")
					// Micrometer's own process meters stay
					.contains("process_cpu_usage", "process_files_open_files");
			});
	}

	@Test
	void givesTheStandardProcessMetricsTheRegistryTags() {
		KubernetesContextRunner.with(PrometheusMetricsExportAutoConfiguration.class)
			.withPropertyValues("management.metrics.tags.region=eu")
			.run((context) -> assertThat(context.getBean(PrometheusMeterRegistry.class).scrape())
				.contains("process_open_fds{region=\"eu\"}", "process_max_fds{region=\"eu\"}"));
	}

	@Test
	void leavesOutHistogramsListedInDisabledMetrics() {
		KubernetesContextRunner.with(PrometheusMetricsExportAutoConfiguration.class)
			.withPropertyValues("controller.observability.disabled-metrics=controller_runtime_reconcile_time_seconds")
			.run((context) -> {
				context.getBean(ControllerRuntimeMetrics.class);
				List<String> families = new ArrayList<>();
				context.getBean(PrometheusRegistry.class)
					.scrape()
					.forEach((snapshot) -> families.add(snapshot.getMetadata().getPrometheusName()));
				assertThat(families).contains("workqueue_queue_duration_seconds", "workqueue_work_duration_seconds")
					.doesNotContain("controller_runtime_reconcile_time_seconds");
			});
	}

	/**
	 * The counters get {@code management.metrics.tags} from a meter filter; the
	 * histograms, which do not pass it, carry them as constant labels, so that the two
	 * join.
	 */
	@Test
	void labelsTheHistogramsWithTheManagementMetricsTagsAsTheCounters() throws Exception {
		KubernetesContextRunner.with(PrometheusMetricsExportAutoConfiguration.class)
			.withPropertyValues("management.metrics.tags.region=eu-test")
			.run((context) -> {
				context.getBean(ControllerRuntimeMetrics.class)
					.timeControllerExecution(ControllerExecutions.execution("done", null));
				String scrape = context.getBean(PrometheusMeterRegistry.class).scrape();
				assertThat(scrape).contains(
						"controller_runtime_reconcile_time_seconds_count{controller=\"widget\",region=\"eu-test\"} 1",
						"controller_runtime_reconcile_total{controller=\"widget\",region=\"eu-test\",result=\"success\"} 1");
			});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwn() {
		this.contextRunner
			.withBean("customOperatorMetrics", ControllerRuntimeMetrics.class,
					() -> new ControllerRuntimeMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
							new PrometheusRegistry(), null))
			.run((context) -> assertThat(context.getBean(ControllerRuntimeMetrics.class))
				.isSameAs(context.getBean("customOperatorMetrics")));
	}

	@Test
	void declaresNoResourceStateMetricsOrAlertsByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(MetricCatalog.class).definitions()).extracting(MetricDefinition::name)
				.doesNotContain("resource_generation");
			assertThat(context.getBean(RuleSet.class).alerts()).isEmpty();
		});
	}

	@Test
	void declaresTheResourceStateMetricsAndTheirAlertsWhenSwitchedOn() {
		this.contextRunner.withPropertyValues("controller.observability.kubernetes.resource-state.enabled=true")
			.run((context) -> {
				assertThat(context.getBean(MetricCatalog.class).definitions())
					.filteredOn((definition) -> definition.perObject() != null && definition.perObject().kind())
					.extracting(MetricDefinition::name)
					.containsExactlyInAnyOrder("resource_status_condition", "resource_generation",
							"resource_observed_generation", "resource_created_timestamp_seconds");
				assertThat(context.getBean(RuleSet.class).alerts())
					.extracting(AlertRule::name, AlertRule::forDuration, AlertRule::severity)
					.containsExactly(tuple("ResourceNotReady", "15m", "warning"),
							tuple("ResourceGenerationNotReconciled", "15m", "warning"));
			});
	}

	@Test
	void switchesTheResourceStateAlertsByTheirOwnProperties() {
		this.contextRunner.withPropertyValues("controller.observability.kubernetes.resource-state.enabled=true",
				"controller.observability.kubernetes.resource-state.alerts.not-ready.for=30m",
				"controller.observability.kubernetes.resource-state.alerts.generation-not-reconciled.severity=critical")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts())
				.extracting(AlertRule::name, AlertRule::forDuration, AlertRule::severity)
				.containsExactly(tuple("ResourceNotReady", "30m", "warning"),
						tuple("ResourceGenerationNotReconciled", "15m", "critical")));
		this.contextRunner
			.withPropertyValues("controller.observability.kubernetes.resource-state.enabled=true",
					"controller.observability.kubernetes.resource-state.alerts.enabled=false")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts()).isEmpty());
		this.contextRunner.withPropertyValues("controller.observability.kubernetes.resource-state.alerts.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("controller.observability.kubernetes.resource-state.alerts.enabled")
				.hasMessageContaining("Set controller.observability.kubernetes.resource-state.enabled=true"));
	}

	@Test
	void forgetsADeletedResourceInThePerObjectMetricsOfTheControllerMetricsBean() {
		this.contextRunner
			.withPropertyValues("controller.observability.metrics.gadget_parts.type=gauge",
					"controller.observability.metrics.gadget_parts.help=Parts of a gadget.",
					"controller.observability.metrics.gadget_parts.per-object=true")
			.run((context) -> {
				ControllerMetrics metrics = context.getBean(ControllerMetrics.class);
				metrics.gauge("gadget_parts", ObjectRef.of("default", "a")).set(3);
				assertThat(metrics.liveObjects()).isOne();
				context.getBean(ControllerRuntimeMetrics.class)
					.cleanupDoneFor(new ResourceID("a", "default"), Map.of(Constants.CONTROLLER_NAME, "gadget"));
				assertThat(metrics.liveObjects()).isZero();
			});
	}

}
