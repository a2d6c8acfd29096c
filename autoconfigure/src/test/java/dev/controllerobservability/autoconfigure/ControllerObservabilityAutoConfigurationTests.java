package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.rules.RuleSettings;
import dev.controllerobservability.internal.settings.CheckedSettings;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.ObservedOperationAspect;
import dev.controllerobservability.operations.OperationTag;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.rules.ScrapeTarget;
import dev.controllerobservability.test.PrometheusScrape;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAdvisors;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

class ControllerObservabilityAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.operations.tags=provisioner");

	@Test
	void autoConfiguresFilterHandlerOperationsAndAspect() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(ControllerObservabilitySettings.class)
			.hasSingleBean(ControllerMeterFilter.class)
			.hasSingleBean(RecordingFailures.class)
			.hasSingleBean(OperationRecorder.class)
			.hasSingleBean(ControllerOperations.class)
			.hasSingleBean(ObservedOperationAdvisors.TYPE));
	}

	@Test
	void timesObservedOperationMethodsThroughTheAdvisor() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class))
			.withUserConfiguration(AdvisedBeans.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ObservedOperationAspect.class);
				Binding binder = context.getBean(Binding.class);
				assertThat(binder.bind("gpu")).isEqualTo("gpu");
				assertThat(binder.unobserved()).isEqualTo("plain");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("controller.bind.duration")
					.tags("provisioner", "gpu", "result", "success")
					.timer()
					.count()).isEqualTo(1);
				assertThat(registry.find("controller.unobserved.duration").timer()).isNull();
			});
	}

	@Test
	void recordsOperationsDirectlyWhenOnlyMeterHandlersWouldSeeThem() {
		this.contextRunner.run((context) -> {
			ControllerOperations operations = context.getBean(ControllerOperations.class);
			assertThat(operations.isRecordingDirectly()).isTrue();
			operations.observe("bind", Tags.of("provisioner", "gpu"), () -> "bound");
			assertThat(context.getBean(MeterRegistry.class)
				.get("controller.bind.duration")
				.tags("provisioner", "gpu", "result", "success")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void keepsTheObservationWhenAnotherHandlerWouldSeeIt() {
		List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
		ObservationHandler<Observation.Context> tracingLike = new ObservationHandler<>() {
			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStart(Observation.Context context) {
				seen.add(context.getName());
			}
		};
		this.contextRunner.withBean("tracingLike", ObservationHandler.class, () -> tracingLike).run((context) -> {
			ControllerOperations operations = context.getBean(ControllerOperations.class);
			assertThat(operations.isRecordingDirectly()).isFalse();
			operations.observe("bind", Tags.of("provisioner", "gpu"), () -> "bound");
			assertThat(seen).containsExactly("controller.bind");
			assertThat(context.getBean(MeterRegistry.class).get("controller.bind.duration").timer().count())
				.isEqualTo(1);
		});
	}

	@Test
	void keepsTheObservationWhenDirectRecordingIsOff() {
		this.contextRunner.withPropertyValues("controller.observability.operations.direct-recording=false")
			.run((context) -> assertThat(context.getBean(ControllerOperations.class).isRecordingDirectly()).isFalse());
	}

	@Test
	void refreshesCollectorsBeforeEachPrometheusScrape() {
		this.contextRunner.withConfiguration(AutoConfigurations
			.of(org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration.class))
			.withPropertyValues("controller.observability.metrics.queue_depth.type=gauge",
					"controller.observability.metrics.queue_depth.help=Items waiting.")
			.run((context) -> {
				int[] calls = new int[1];
				context.getBean(ControllerMetrics.class).collect("queue_depth", (samples) -> samples.add(++calls[0]));
				PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
				assertThat(registry.scrape()).contains("queue_depth 1.0");
				assertThat(registry.scrape()).contains("queue_depth 2.0");
			});
	}

	@Test
	void refusesAMeterOfTheNameOfAPrometheusOperationHistogramSoTheScrapeKeepsServing() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(PrometheusMetricsExportAutoConfiguration.class))
			.withPropertyValues("controller.observability.namespace=karpenter",
					"controller.observability.operations.backend=prometheus",
					"controller.observability.meter-prefixes=bind")
			.run((context) -> {
				context.getBean(ControllerOperations.class)
					.observe("bind", Tags.of("provisioner", "gpu"), () -> "bound");
				Timer.builder("bind.duration")
					.register(context.getBean(MeterRegistry.class))
					.record(Duration.ofSeconds(1));
				PrometheusScrape scrape = PrometheusScrape
					.parse(context.getBean(PrometheusMeterRegistry.class).scrape());
				assertThat(scrape.samples("karpenter_bind_duration_seconds_count")).singleElement()
					.satisfies((sample) -> assertThat(sample.labels()).containsEntry("provisioner", "gpu")
						.containsEntry("result", "success"))
					.satisfies((sample) -> assertThat(sample.value()).isEqualTo(1));
				assertThat(scrape.value("karpenter_observability_errors_total", Map.of())).isEqualTo(1);
			});
	}

	@Test
	void doesNotConfigureTheAspectWithoutAspectJ() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.aspectj"))
			.run((context) -> assertThat(context).hasSingleBean(ControllerOperations.class)
				.doesNotHaveBean(ObservedOperationAdvisors.TYPE));
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("controller.observability.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ControllerMeterFilter.class)
				.doesNotHaveBean(ControllerOperations.class)
				.doesNotHaveBean(OperationRecorder.class)
				.doesNotHaveBean(ObservedOperationAdvisors.TYPE));
	}

	@Test
	void backsOffWhenUserDefinesEachBean() {
		this.contextRunner.withUserConfiguration(UserBeans.class).run((context) -> {
			assertThat(context.getBean(ControllerMeterFilter.class)).isSameAs(UserBeans.FILTER);
			assertThat(context.getBean(RecordingFailures.class)).isSameAs(UserBeans.FAILURES);
			assertThat(context.getBean(OperationRecorder.class)).isSameAs(UserBeans.HANDLER);
			assertThat(context.getBean(ControllerOperations.class)).isSameAs(UserBeans.OPERATIONS);
			assertThat(context.getBean(ObservedOperationAspect.class)).isSameAs(UserBeans.ASPECT);
			assertThat(context).doesNotHaveBean(ObservedOperationAdvisors.TYPE);
		});
	}

	@Test
	void backsOffWhenUserDefinesSettings() {
		ControllerObservabilitySettings settings = new ControllerObservabilitySettings(new CheckedSettings("custom",
				Tags.empty(), List.of(1.0), List.of(), Duration.ofMinutes(1), List.of("provisioner"), Map.of(), 10,
				StabilityPolicy.showAll(), List.of(), Map.of(), 10, 10, 100, List.of(), SettingNames.PROPERTIES), true,
				OperationsProperties.Backend.MICROMETER,
				new RuleSettings("5m", "custom.rules", Map.of(), Map.of(), Map.of(), Map.of(),
						new ScrapeTarget("custom", java.util.Map.of("app.kubernetes.io/name", "custom"), Map.of(),
								"http", "/actuator/prometheus", "30s")),
				new ControllerObservabilitySettings.Lint(java.util.Set.of(), List.of(), LintProperties.Mode.WARN));
		this.contextRunner.withBean(ControllerObservabilitySettings.class, () -> settings)
			.run((context) -> assertThat(context.getBean(ControllerObservabilitySettings.class)).isSameAs(settings));
	}

	@Test
	void derivesTheNamespaceFromTheApplicationName() {
		this.contextRunner.withPropertyValues("spring.application.name=Demo-Controller")
			.run((context) -> assertThat(context.getBean(ControllerObservabilitySettings.class).core().namespace())
				.isEqualTo("demo_controller"));
	}

	@Test
	void usesControllerAsNamespaceWithoutApplicationName() {
		this.contextRunner
			.run((context) -> assertThat(context.getBean(ControllerObservabilitySettings.class).core().namespace())
				.isEqualTo("controller"));
	}

	@Test
	void appliesDefaultBucketsWhileDistributionPropertiesWin() {
		this.contextRunner
			.withPropertyValues("controller.observability.namespace=karpenter",
					"controller.observability.duration-buckets=0.5,1,2",
					"management.metrics.distribution.slo.karpenter.launch.duration=100ms,300ms")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(boundariesSeconds(registry.timer("karpenter.bind.duration"))).containsExactly(0.5, 1.0, 2.0);
				assertThat(boundariesSeconds(registry.timer("karpenter.launch.duration"))).containsExactly(0.1, 0.3);
				assertThat(boundariesSeconds(registry.timer("jvm.gc.pause.test"))).isEmpty();
			});
	}

	@Test
	void appliesBootMetricsPropertiesToNamespacedNames() {
		this.contextRunner
			.withPropertyValues("controller.observability.namespace=karpenter",
					"controller.observability.meter-prefixes=nodes", "management.metrics.enable.karpenter.nodes=false")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				registry.counter("nodes.created").increment();
				registry.counter("pods.bound").increment();
				assertThat(registry.find("karpenter.nodes.created").meter()).isNull();
				assertThat(registry.find("pods.bound").counter()).isNotNull();
			});
	}

	@Test
	void timesOperationsInTheContextRegistry() {
		this.contextRunner.withPropertyValues("controller.observability.namespace=karpenter").run((context) -> {
			context.getBean(ControllerOperations.class).observe("bind", Tags.of("provisioner", "gpu"), () -> {
			});
			Timer timer = context.getBean(MeterRegistry.class)
				.get("karpenter.bind.duration")
				.tags("provisioner", "gpu", "result", "success", "error", "none")
				.timer();
			assertThat(timer.count()).isEqualTo(1);
			assertThat(context.getBean(MeterRegistry.class).find("karpenter.bind").meters()).isEmpty();
		});
	}

	@Test
	void appliesCardinalityLimitsToOperationLabels() {
		this.contextRunner
			.withPropertyValues("controller.observability.namespace=karpenter",
					"controller.observability.max-label-values=2",
					"controller.observability.label-allow-list.karpenter_launch_duration_seconds.provisioner=gpu")
			.run((context) -> {
				ControllerOperations operations = context.getBean(ControllerOperations.class);
				for (String provisioner : new String[] { "a", "b", "c", "d" }) {
					operations.observe("bind", Tags.of("provisioner", provisioner), () -> {
					});
					operations.observe("launch", Tags.of("provisioner", provisioner), () -> {
					});
				}
				operations.observe("launch", Tags.of("provisioner", "gpu"), () -> {
				});
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find("karpenter.bind.duration").timers())
					.extracting((timer) -> timer.getId().getTag("provisioner"))
					.containsExactlyInAnyOrder("a", "b", "unexpected");
				assertThat(registry.get("karpenter.bind.duration").tags("provisioner", "unexpected").timer().count())
					.isEqualTo(2);
				assertThat(registry.find("karpenter.launch.duration").timers())
					.extracting((timer) -> timer.getId().getTag("provisioner"))
					.containsExactlyInAnyOrder("gpu", "unexpected");
				assertThat(
						registry.get("karpenter.cardinality_enforcement_unexpected_categorizations").counter().count())
					.isEqualTo(6);
			});
	}

	@Test
	void failsOnAnAlertNameThatIsNotPascalCase() {
		assertFailure(
				new String[] { "controller.observability.alerts.launch-errors.expr=up == 0",
						"controller.observability.alerts.launch-errors.severity=warning",
						"controller.observability.alerts.launch-errors.summary=Launches fail" },
				"Property: controller.observability.alerts.launch-errors", "alert names are PascalCase",
				"'LaunchErrors'");
	}

	@Test
	void failsOnAnAlertWithoutSeverity() {
		assertFailure(
				new String[] { "controller.observability.alerts.LaunchErrors.expr=up == 0",
						"controller.observability.alerts.LaunchErrors.summary=Launches fail" },
				"Property: controller.observability.alerts.LaunchErrors.severity", "every alert needs a severity",
				"Set severity to critical, warning or info");
	}

	@Test
	void failsOnBadPromQl() {
		assertFailure(
				new String[] { "controller.observability.alerts.LaunchErrors.expr=sum(rate(up[5m]) > 1",
						"controller.observability.alerts.LaunchErrors.severity=warning",
						"controller.observability.alerts.LaunchErrors.summary=Launches fail" },
				"Property: controller.observability.alerts.LaunchErrors.expr",
				"the PromQL is not valid: '(' is not closed");
	}

	@Test
	void failsOnARecordingRuleWhoseColonsSpringDropped() {
		// What a YAML key "job:karpenter_x_total:rate5m" without brackets becomes after
		// binding.
		assertFailure(
				"controller.observability.recording-rules.jobkarpenter_x_totalrate5m.expr=rate(karpenter_x_total[5m])",
				"Property: controller.observability.recording-rules[jobkarpenter_x_totalrate5m]",
				"needs brackets in Spring Boot configuration");
	}

	@Test
	void failsOnAnInvalidBuiltInRuleThreshold() {
		assertFailure(
				new String[] { "controller.observability.rules.operations.launch.error-ratio.enabled=true",
						"controller.observability.rules.operations.launch.error-ratio.threshold=5" },
				"Property: controller.observability.rules.operations.launch.error-ratio.threshold", "Value: \"5.0\"",
				"above 0 and at most 1");
	}

	@Test
	void resolvesRulePlaceholders() {
		this.contextRunner.withPropertyValues("controller.observability.namespace=karpenter",
				"controller.observability.operations.definitions.launch.subsystem=cloudprovider",
				"controller.observability.alerts.LaunchStuck.expr=${operation.launch.in_flight} > 0 and ${namespace}_x == 0",
				"controller.observability.alerts.LaunchStuck.severity=info",
				"controller.observability.alerts.LaunchStuck.summary=Stuck")
			.run((context) -> assertThat(context.getBean(RuleSet.class).alerts()).singleElement()
				.satisfies((alert) -> assertThat(alert.expr())
					.isEqualTo("karpenter_cloudprovider_launch_in_flight > 0 and karpenter_x == 0")));
	}

	@Test
	void annotatesOperationHelpWithItsStabilityLevel() {
		this.contextRunner
			.withPropertyValues("controller.observability.namespace=karpenter",
					"controller.observability.operations.definitions.bind.stability=stable",
					"controller.observability.operations.definitions.bind.description=Duration of binds.")
			.run((context) -> {
				context.getBean(ControllerOperations.class).observe("bind", Tags.of("provisioner", "gpu"), () -> {
				});
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("karpenter.bind.duration").timer().getId().getDescription())
					.isEqualTo("[STABLE] Duration of binds.");
				assertThat(registry.get("karpenter.bind.in_flight").gauge().getId().getDescription())
					.isEqualTo("[STABLE] Number of bind operations in flight.");
			});
	}

	@Test
	void failsOnAnUnknownOperationStabilityLevel() {
		assertFailure("controller.observability.operations.definitions.bind.stability=GA",
				"Property: controller.observability.operations.definitions.bind.stability", "Value: \"GA\"",
				"INTERNAL, ALPHA, BETA or STABLE");
	}

	@Test
	void failsOnAnInvalidNamespace() {
		assertFailure("controller.observability.namespace=Karpenter-Controller",
				"Property: controller.observability.namespace", "Value: \"Karpenter-Controller\"",
				"snake_case Prometheus name", "'karpenter_controller'");
	}

	@Test
	void failsOnAFrameworkNamespace() {
		assertFailure("controller.observability.namespace=jvm", "Property: controller.observability.namespace",
				"prefix of framework", "controller's own name");
	}

	@Test
	void failsOnNegativeBuckets() {
		assertFailure("controller.observability.duration-buckets=0.1,-1",
				"Property: controller.observability.duration-buckets[1]", "Value: \"-1.0\"", "must be positive",
				"positive number such as 0.005");
	}

	@Test
	void failsOnUnsortedBuckets() {
		assertFailure("controller.observability.duration-buckets=0.1,1,0.5",
				"Property: controller.observability.duration-buckets[2]", "0.5 follows 1.0",
				"ascending order: [0.1, 0.5, 1.0]");
	}

	@Test
	void failsOnDuplicateBuckets() {
		assertFailure("controller.observability.operations.definitions.bind.buckets=0.1,0.1",
				"Property: controller.observability.operations.definitions.bind.buckets[1]", "listed twice",
				"Remove the duplicate boundary");
	}

	@Test
	void failsOnAnInvalidOperationTagKey() {
		assertFailure("controller.observability.operations.tags=provisioner,node-pool",
				"Property: controller.observability.operations.tags[1]", "Value: \"node-pool\"",
				"snake_case Prometheus label name", "'node_pool'");
	}

	@Test
	void failsOnAReservedTagKey() {
		assertFailure("controller.observability.common-tags.result=x",
				"Property: controller.observability.common-tags.result", "'result' is reserved",
				"Choose another label key");
	}

	@Test
	void failsOnAnEmptyCommonTagValue() {
		assertFailure("controller.observability.common-tags.cluster=",
				"Property: controller.observability.common-tags.cluster", "must not be empty",
				"Give the tag a value, or remove it");
	}

	@Test
	void failsOnADuplicateOperationTagKey() {
		assertFailure("controller.observability.operations.tags=provisioner,provisioner",
				"Property: controller.observability.operations.tags[1]", "listed twice", "Remove the duplicate");
	}

	@Test
	void failsOnTwoDefinitionsOfTheSameOperation() {
		this.contextRunner
			.withPropertyValues("controller.observability.operations.definitions.apply-packing.subsystem=a",
					"controller.observability.operations.definitions.apply_packing.subsystem=b")
			.run((context) -> assertThat(analyze(context).getDescription())
				.contains("are the same operation ('apply_packing')"));
	}

	@Test
	void failsOnAnInvalidMeterPrefix() {
		assertFailure("controller.observability.meter-prefixes=Nodes-Created",
				"Property: controller.observability.meter-prefixes[0]", "dotted Micrometer name",
				"'nodes' or 'cloud.api'");
	}

	@Test
	void failsOnAnInvalidSubsystem() {
		assertFailure("controller.observability.operations.definitions.bind.subsystem=Allocation Controller",
				"Property: controller.observability.operations.definitions.bind.subsystem",
				"a subsystem is a snake_case", "'allocation_controller'");
	}

	@Test
	void failsOnAnUnknownOperationProperty() {
		assertFailure("controller.observability.operations.definitions.bind.subsytem=allocation",
				"Property: controller.observability.operations.definitions.bind.subsytem", "Value: \"allocation\"",
				"no property 'subsytem' here", "buckets, description, stability, subsystem",
				"Did you mean 'subsystem'?");
	}

	@Test
	void failsOnAValueOfTheWrongType() {
		assertFailure("controller.observability.duration-buckets=0.1,x",
				"Property: controller.observability.duration-buckets", "Value: \"0.1,x\"",
				"cannot be read as a list of numbers", "Set it to a list of numbers, such as [0.1, 1, 10]");
		assertFailure("controller.observability.lint.mode=loud", "Property: controller.observability.lint.mode",
				"Value: \"loud\"", "Set it to one of off, warn, fail");
		assertFailure("controller.observability.error-log-interval=soon",
				"Property: controller.observability.error-log-interval", "Set it to a duration, such as 30s or 1m");
	}

	@Test
	void failsOnAnUnknownTopLevelProperty() {
		assertFailure("controller.observability.namespce=karpenter", "Property: controller.observability.namespce",
				"Did you mean 'namespace'?");
	}

	@Test
	void failsOnAnUnknownMetricProperty() {
		assertFailure("controller.observability.metrics.nodes_total.labls=zone",
				"Property: controller.observability.metrics.nodes_total.labls", "Did you mean 'labels'?",
				"buckets, deprecated-version, help, label-values, labels, object-kind, per-object, renamed-in, replaces, "
						+ "stability, time-to-live, type, unit");
	}

	@Test
	void failsOnAnUnknownMetricType() {
		assertFailure(
				new String[] { "controller.observability.metrics.nodes_total.type=countr",
						"controller.observability.metrics.nodes_total.help=Nodes." },
				"Property: controller.observability.metrics.nodes_total.type", "Value: \"countr\"",
				"the type is unknown", "counter, gauge, histogram, summary or info");
	}

	@Test
	void failsOnAnUnknownStabilityLevel() {
		assertFailure(
				new String[] { "controller.observability.metrics.nodes_total.type=counter",
						"controller.observability.metrics.nodes_total.help=Nodes.",
						"controller.observability.metrics.nodes_total.stability=GA" },
				"Property: controller.observability.metrics.nodes_total.stability", "Value: \"GA\"",
				"INTERNAL, ALPHA, BETA or STABLE");
	}

	@Test
	void failsOnACatalogMistakeNamingTheMetricField() {
		assertFailure(
				new String[] { "controller.observability.metrics.nodes_total.type=counter",
						"controller.observability.metrics.nodes_total.help=Nodes.",
						"controller.observability.metrics.nodes_total.deprecated-version=1.4" },
				"Property: controller.observability.metrics.nodes_total.deprecated-version", "Value: \"1.4\"",
				"MAJOR.MINOR.PATCH");
	}

	@Test
	void failsOnAMetricDefinitionBeanMistake() {
		this.contextRunner
			.withBean(MetricDefinition.class, () -> MetricDefinition.counter("nodes_created_total").help("h").build())
			.run((context) -> {
				String text = analyze(context).getDescription();
				assertThat(text).contains("Property: controller.observability.metrics.nodes_created_total",
						"(declared as a MetricDefinition bean)", "'_created' is reserved");
			});
	}

	@Test
	void failsOnAShowHiddenVersionOtherThanThePreviousMinor() {
		assertFailure(
				new String[] { "controller.observability.version=1.5.0",
						"controller.observability.show-hidden-metrics-for-version=1.3" },
				"Property: controller.observability.show-hidden-metrics-for-version", "Value: \"1.3\"",
				"only the previous minor version of 1.5.0 is accepted: \"1.4\"");
	}

	@Test
	void failsOnAMalformedControllerVersion() {
		assertFailure("controller.observability.version=next", "Property: controller.observability.version",
				"MAJOR.MINOR.PATCH");
	}

	@Test
	void failsOnAZeroCardinalityCap() {
		assertFailure("controller.observability.max-label-values=0",
				"Property: controller.observability.max-label-values", "at least 1");
	}

	@Test
	void registersDeclaredMetricsFromConfigurationAndBeans() {
		this.contextRunner
			.withPropertyValues("controller.observability.namespace=karpenter",
					"controller.observability.metrics.nodes_launched_total.type=counter",
					"controller.observability.metrics.nodes_launched_total.help=Nodes launched.",
					"controller.observability.metrics.nodes_launched_total.stability=stable")
			.withBean(MetricDefinition.class, () -> MetricDefinition.gauge("pending_pods").help("Pending.").build())
			.run((context) -> {
				MetricCatalog catalog = context.getBean(MetricCatalog.class);
				assertThat(catalog.names()).containsExactly("nodes_launched_total", "pending_pods");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("karpenter.nodes_launched").counter().getId().getDescription())
					.isEqualTo("[STABLE] Nodes launched.");
			});
	}

	private void assertFailure(String property, String... expected) {
		assertFailure(new String[] { property }, expected);
	}

	private void assertFailure(String[] properties, String... expected) {
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
			String text = analysis.getDescription() + "\n" + analysis.getAction();
			assertThat(text).contains(expected);
		});
	}

	private static FailureAnalysis analyze(AssertableApplicationContext context) {
		Throwable failure = context.getStartupFailure();
		return ControllerObservabilityFailureAnalysis.analyze(failure);
	}

	private static List<Double> boundariesSeconds(Timer timer) {
		return Arrays.stream(timer.takeSnapshot().histogramCounts())
			.map(CountAtBucket::bucket)
			.map((nanos) -> nanos / 1e9)
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeans {

		static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();

		static final ControllerMeterFilter FILTER = new ControllerMeterFilter(NamingPolicy.builder("user").build());

		static final RecordingFailures FAILURES = new RecordingFailures(REGISTRY, "user", Duration.ofSeconds(1));

		static final OperationRecorder HANDLER = new OperationRecorder(REGISTRY, FAILURES);

		static final ControllerOperations OPERATIONS = ControllerOperations
			.builder(ObservationRegistry.create(), FAILURES)
			.build();

		static final ObservedOperationAspect ASPECT = new ObservedOperationAspect(OPERATIONS, FAILURES);

		@Bean
		ControllerMeterFilter userFilter() {
			return FILTER;
		}

		@Bean
		RecordingFailures userFailures() {
			return FAILURES;
		}

		@Bean
		OperationRecorder userHandler() {
			return HANDLER;
		}

		@Bean
		ControllerOperations userOperations() {
			return OPERATIONS;
		}

		@Bean
		ObservedOperationAspect userAspect() {
			return ASPECT;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AdvisedBeans {

		@Bean
		Binding binding() {
			return new InterfaceBinder();
		}

	}

	/** Advised through its interface: the annotation is on the implementation only. */
	interface Binding {

		String bind(String provisioner);

		String unobserved();

	}

	static class InterfaceBinder implements Binding {

		@Override
		@ObservedOperation("bind")
		public String bind(@OperationTag("provisioner") String provisioner) {
			return provisioner;
		}

		@Override
		public String unobserved() {
			return "plain";
		}

	}

}
