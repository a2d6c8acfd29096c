package dev.controllerobservability.autoconfigure;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.controllerobservability.autoconfigure.ConfiguredApplication.Source;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.stability.StabilityLevel;
import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the configuration checks must let through, each in a real application: operations
 * declared without settings, correctly spelt environment variables and system properties,
 * and names that may still come to exist, which get one WARN instead of a refusal.
 */
@ExtendWith(OutputCaptureExtension.class)
class AcceptedConfigurationTests {

	@ParameterizedTest
	@ValueSource(strings = { "{}", "~", "''" })
	void operationWithoutSettingsIsDeclaredInYaml(String empty) {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				controller.observability:
				  namespace: karpenter
				  operations.definitions:
				    bind: %s
				    launch: {subsystem: cloudprovider}
				  alerts:
				    KarpenterBindStuck:
				      expr: ${operation.bind.in_flight} > 0
				      severity: warning
				      summary: Binds are in flight
				""".formatted(empty))) {
			assertDeclaresBind(context);
		}
	}

	@Test
	void operationWithoutSettingsIsDeclaredInProperties() {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.PROPERTIES, """
				controller.observability.namespace=karpenter
				controller.observability.operations.definitions.bind=
				controller.observability.alerts.KarpenterBindStuck.expr=${operation.bind.in_flight} > 0
				controller.observability.alerts.KarpenterBindStuck.severity=warning
				controller.observability.alerts.KarpenterBindStuck.summary=Binds are in flight
				""")) {
			assertDeclaresBind(context);
		}
	}

	@Test
	void emptyDefinitionInAnInactiveProfileDocumentDeclaresNothing() {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				controller.observability.namespace: karpenter
				---
				spring.config.activate.on-profile: never-active
				controller.observability.operations.definitions.bind: {}
				""")) {
			assertThat(context.getBean(ControllerObservabilitySettings.class).core().operationDefinitions()).isEmpty();
		}
	}

	private static void assertDeclaresBind(ConfigurableApplicationContext context) {
		assertThat(context.getBean(ControllerObservabilitySettings.class).core().operationDefinitions())
			.containsKey("bind");
		assertThat(context.getBean(LiveMetrics.class).declaredFamilies()).extracting(ExposedFamily::name)
			.contains("karpenter_bind_duration_seconds", "karpenter_bind_in_flight");
		assertThat(context.getBean(ControllerArtefacts.class).dashboard().toJson())
			.contains("karpenter_bind_duration_seconds");
		assertThat(context.getBean(ControllerArtefacts.class).rulesFile()).contains("karpenter_bind_in_flight > 0");
	}

	@Test
	void declaredOperationsCarryTheRegistryTagsAndDisabledFamiliesAreLeftOut() {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				management.metrics.tags.region: eu
				controller.observability:
				  namespace: karpenter
				  common-tags.cluster: dev
				  disabled-metrics: [karpenter_bind_duration_seconds, karpenter_launch_in_flight]
				  operations.definitions:
				    bind: {stability: beta}
				    launch: {stability: beta}
				""")) {
			List<ExposedFamily> declared = context.getBean(LiveMetrics.class).declaredFamilies();
			assertThat(declared).extracting(ExposedFamily::name)
				.contains("karpenter_bind_in_flight", "karpenter_launch_duration_seconds",
						"karpenter_launch_duration_seconds_max")
				.doesNotContain("karpenter_bind_duration_seconds", "karpenter_bind_duration_seconds_max",
						"karpenter_launch_in_flight");
			assertThat(declared).allSatisfy((family) -> assertThat(family.labelKeys()).contains("region", "cluster"));
			assertThat(context.getBean(ControllerArtefacts.class).dashboard().toJson())
				.contains("karpenter_bind_in_flight", "karpenter_launch_duration_seconds_bucket")
				.doesNotContain("karpenter_bind_duration_seconds", "karpenter_launch_in_flight");
		}
	}

	@Test
	void correctlySpeltEnvironmentVariablesBind() {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.ENVIRONMENT, """
				CONTROLLER_OBSERVABILITY_NAMESPACE=karpenter
				CONTROLLER_OBSERVABILITY_DURATION_BUCKETS=0.5,5
				CONTROLLER_OBSERVABILITY_COMMONTAGS_CLUSTER=dev
				CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_BIND_SUBSYSTEM=allocation_controller
				CONTROLLER_OBSERVABILITY_MAXLABELVALUES=50
				CONTROLLER_OBSERVABILITY_LINT_MODE=off
				CONTROLLER_OBSERVABILITY_SERVICE_HOST=10.0.0.1
				CONTROLLER_OBSERVABILITY_PORT_8080_TCP_ADDR=10.0.0.1
				""")) {
			ControllerObservabilitySettings settings = context.getBean(ControllerObservabilitySettings.class);
			assertThat(settings.core().namespace()).isEqualTo("karpenter");
			assertThat(settings.core().durationBuckets()).containsExactly(0.5, 5.0);
			assertThat(settings.core().commonTags()).extracting((tag) -> tag.getKey() + "=" + tag.getValue())
				.containsExactly("cluster=dev");
			assertThat(settings.core().operationDefinitions().get("bind").subsystem())
				.isEqualTo("allocation_controller");
			assertThat(settings.core().maxLabelValues()).isEqualTo(50);
		}
	}

	@Test
	void oneWordMapKeyInAnEnvironmentVariableWithoutATwinDeclaresItsOwnEntry() {
		ConfiguredApplication.Layered layered = new ConfiguredApplication.Layered("""
				controller.observability:
				  namespace: karpenter
				  operations.definitions:
				    issue-certificate: {subsystem: certmanager}
				""", Map.of("CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_RECONCILE_BUCKETS", "0.1,0.5"));
		try (ConfigurableApplicationContext context = layered.start()) {
			Map<String, OperationDefinition> definitions = context.getBean(ControllerObservabilitySettings.class)
				.core()
				.operationDefinitions();
			assertThat(definitions).containsOnlyKeys("issue_certificate", "reconcile");
			assertThat(definitions.get("reconcile").buckets()).containsExactly(0.1, 0.5);
			assertThat(definitions.get("issue_certificate").buckets()).isEmpty();
			assertThat(definitions.get("issue_certificate").subsystem()).isEqualTo("certmanager");
		}
	}

	@Test
	void correctlySpeltSystemPropertiesBind() {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.SYSTEM_PROPERTIES, """
				controller.observability.namespace=karpenter
				controller.observability.duration-buckets[0]=0.5
				controller.observability.operations.definitions.apply-packing.subsystem=provisioner
				controller.observability.common-tags.cluster=dev
				controller.observability.maxLabelValues=50
				""")) {
			ControllerObservabilitySettings settings = context.getBean(ControllerObservabilitySettings.class);
			assertThat(settings.core().durationBuckets()).containsExactly(0.5);
			assertThat(settings.core().operationDefinitions().get("apply_packing").subsystem())
				.isEqualTo("provisioner");
			assertThat(settings.core().maxLabelValues()).isEqualTo(50);
		}
	}

	@Test
	void typesLevelsAndSeveritiesAreReadInAnyCase() {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				controller.observability:
				  namespace: karpenter
				  operations.definitions.bind: {stability: stable}
				  metrics:
				    nodes_launched_total: {type: Counter, help: Nodes launched., stability: beta}
				  alerts:
				    KarpenterBindStuck:
				      expr: ${operation.bind.in_flight} > 0
				      severity: Critical
				      summary: Binds are in flight
				  rules.operations:
				    bind.stuck: {enabled: true, severity: INFO}
				""")) {
			ControllerObservabilitySettings settings = context.getBean(ControllerObservabilitySettings.class);
			assertThat(settings.core().operationDefinitions().get("bind").stability()).isEqualTo(StabilityLevel.STABLE);
			assertThat(settings.core().metrics()).singleElement().satisfies((metric) -> {
				assertThat(metric.type()).isEqualTo(MetricType.COUNTER);
				assertThat(metric.stability()).isEqualTo(StabilityLevel.BETA);
			});
			RuleSet rules = context.getBean(RuleSet.class);
			assertThat(rules.alerts()).extracting(AlertRule::name, AlertRule::severity)
				.containsExactlyInAnyOrder(tuple("KarpenterBindStuck", "critical"),
						tuple("KarpenterBindStuckInFlight", "info"));
		}
	}

	@Test
	void namesThatMayStillComeToExistGetOneWarningEach(CapturedOutput output) {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				controller.observability:
				  namespace: karpenter
				  operations.tags: [provisioner]
				  operations.definitions.launch: {}
				  disabled-metrics: [karpenter_nodes_launched_totl, jvm_threads_live_threads]
				  metrics:
				    nodes_launched_total: {type: counter, help: Nodes launched.}
				  label-allow-list:
				    karpenter_bind_duration_seconds: {provisioner: [default]}
				  rules.operations:
				    lanch.stuck.enabled: true
				""")) {
			assertThat(warnings(output)).containsExactlyInAnyOrder(
					"controller.observability.disabled-metrics[0]=karpenter_nodes_launched_totl: no metric of this "
							+ "name has been registered or declared by the time the application is ready (did you "
							+ "mean karpenter_nodes_launched_total?); if it comes later, ignore this",
					"controller.observability.label-allow-list.karpenter_bind_duration_seconds="
							+ "karpenter_bind_duration_seconds: no operation with this histogram has been declared or "
							+ "called by the time the application is ready (did you mean "
							+ "karpenter_lanch_duration_seconds?); if it comes later, ignore this",
					"controller.observability.rules.operations.lanch=lanch: no operation of this name is declared "
							+ "under controller.observability.operations.definitions or has been called by the time "
							+ "the application is ready (did you mean launch?); if it comes later, ignore this");
		}
	}

	@Test
	void namesThatReferToSomethingGetNoWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				controller.observability:
				  namespace: karpenter
				  operations.tags: [provisioner]
				  operations.definitions.launch: {}
				  disabled-metrics:
				  - jvm_threads_live_threads
				  - karpenter_nodes_launched_total
				  - controller_runtime_reconcile_time_seconds
				  - workqueue_work_duration_seconds
				  metrics:
				    nodes_launched_total: {type: counter, help: Nodes launched.}
				  label-allow-list:
				    karpenter_launch_duration_seconds: {provisioner: [default]}
				  rules.operations:
				    launch.stuck.enabled: true
				""")) {
			assertThat(warnings(output)).isEmpty();
		}
	}

	@Test
	void aDisabledInFlightGaugeOfADeclaredOperationGetsNoWarning(CapturedOutput output) {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				controller.observability:
				  namespace: karpenter
				  operations.definitions.bind.subsystem: allocation_controller
				  disabled-metrics: [karpenter_allocation_controller_bind_in_flight]
				""")) {
			assertThat(warnings(output)).isEmpty();
		}
	}

	@Test
	void operationsCalledBeforeReadyAreKnownWithThePrometheusBackend(CapturedOutput output) {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(Source.YAML, """
				controller.observability:
				  namespace: karpenter
				  operations.backend: prometheus
				  operations.tags: [provisioner]
				  disabled-metrics: [karpenter_evict_duration_seconds]
				  label-allow-list:
				    karpenter_drain_duration_seconds: {provisioner: [default]}
				  rules.operations:
				    drain.stuck.enabled: true
				""", CallsOperationsAtStartUp.class)) {
			assertThat(context.getBean(ControllerObservabilitySettings.class).backend())
				.isEqualTo(OperationsProperties.Backend.PROMETHEUS);
			assertThat(warnings(output)).isEmpty();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class CallsOperationsAtStartUp {

		@Bean
		ApplicationRunner callOperations(ControllerOperations operations) {
			return (arguments) -> {
				operations.observe("evict", Tags.of("provisioner", "default"), () -> "evicted");
				operations.observe("drain", Tags.of("provisioner", "default"), () -> "drained");
			};
		}

	}

	/**
	 * What {@link ConfigurationReferences} logged at WARN; the application's logging
	 * replaces test appenders.
	 */
	private static List<String> warnings(CapturedOutput output) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains(" WARN ") && line.contains(ConfigurationReferences.class.getSimpleName()))
			.map((line) -> line.substring(line.indexOf(" : ") + 3))
			.toList();
	}

}
