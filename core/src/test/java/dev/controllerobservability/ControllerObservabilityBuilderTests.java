package dev.controllerobservability;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.controllerobservability.catalog.ControllerMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.operations.OperationDefinition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The builder refuses every setting the Spring Boot properties refuse, when it builds,
 * and names the builder method, never a property.
 */
class ControllerObservabilityBuilderTests {

	static Stream<Arguments> refusedSettings() {
		return Stream.of(refused("namespace", (b) -> b.namespace("Bad-Name"), "namespace(…)", "Bad-Name", "snake_case"),
				refused("namespace", (b) -> b.namespace(""), "namespace(…)", "", "snake_case"),
				refused("namespace", (b) -> b.namespace(null), "namespace(…)", null, "snake_case"),
				refused("namespace", (b) -> b.namespace("jvm"), "namespace(…)", "jvm", "framework"),
				refused("namespace", (b) -> b.namespace("jvm_memory"), "namespace(…)", "jvm_memory",
						"starts with the prefix of framework or Kubernetes client metrics (jvm_*)"),
				refused("namespace", (b) -> b.namespace("http_server"), "namespace(…)", "http_server", "(http_*)"),
				refused("operations.tags[0]", (b) -> b.operationTags("le"), "operationTags(…) element 0", "le",
						"reserved"),
				refused("operations.tags[1]", (b) -> b.operationTags("kind", "result"), "operationTags(…) element 1",
						"result", "reserved"),
				refused("operations.tags[0]", (b) -> b.operationTags("quantile"), "operationTags(…) element 0",
						"quantile", "reserved"),
				refused("operations.tags[0]", (b) -> b.operationTags("error"), "operationTags(…) element 0", "error",
						"reserved"),
				refused("operations.tags[1]", (b) -> b.operationTags("kind", "kind"), "operationTags(…) element 1",
						"kind", "listed twice"),
				refused("operations.tags[0]", (b) -> b.operationTags("Kind"), "operationTags(…) element 0", "Kind",
						"snake_case"),
				refused("operations.tags", (b) -> b.operationTags((String[]) null), "operationTags(…)", null,
						"must not be null"),
				refused("common-tags.le", (b) -> b.commonTags(Tags.of("le", "x")), "commonTags(…) key \"le\"", "le",
						"reserved"),
				refused("common-tags.cluster", (b) -> b.commonTags(Tags.of("cluster", "")),
						"commonTags(…) key \"cluster\"", "", "must not be empty"),
				refused("duration-buckets[1]", (b) -> b.durationBuckets(List.of(1.0, 0.5)),
						"durationBuckets(…) element 1", 0.5, "strictly increasing"),
				refused("duration-buckets[0]", (b) -> b.durationBuckets(List.of(-1.0, 0.5)),
						"durationBuckets(…) element 0", -1.0, "positive and finite"),
				refused("duration-buckets", (b) -> b.durationBuckets(List.of()), "durationBuckets(…)", List.of(),
						"at least one"),
				refused("meter-prefixes[0]", (b) -> b.meterPrefixes("jvm.memory"), "meterPrefixes(…) element 0",
						"jvm.memory", "framework meters"),
				refused("error-log-interval", (b) -> b.errorLogInterval(Duration.ofSeconds(-1)), "errorLogInterval(…)",
						Duration.ofSeconds(-1), "zero or positive"),
				refused("operations.definitions.bind.subsystem",
						(b) -> b.operation("bind", new OperationDefinition("Alloc-Ctrl", null, List.of(), null)),
						"operation(\"bind\", …) subsystem", "Alloc-Ctrl", "snake_case"),
				refused("operations.definitions.bind.description",
						(b) -> b.operation("bind", new OperationDefinition(null, " ", List.of(), null)),
						"operation(\"bind\", …) description", " ", "must not be blank"),
				refused("operations.definitions.bind.buckets[1]",
						(b) -> b.operation("bind", new OperationDefinition(null, null, List.of(2.0, 1.0), null)),
						"operation(\"bind\", …) buckets element 1", 1.0, "strictly increasing"),
				refused("operations.definitions.apply_packing",
						(b) -> b.operation("apply-packing", OperationDefinition.DEFAULT)
							.operation("apply_packing", OperationDefinition.DEFAULT),
						"operation(\"apply_packing\", …)", "apply_packing", "the same operation"),
				refused("operations.definitions.!!", (b) -> b.operation("!!", OperationDefinition.DEFAULT),
						"operation(\"!!\", …)", "!!", "snake_case"),
				refused("operations.definitions.null", (b) -> b.operation(null, OperationDefinition.DEFAULT),
						"operation(\"null\", …)", null, "needs a name"),
				refused("operations.definitions.bind", (b) -> b.operation("bind", null), "operation(\"bind\", …)", null,
						"must not be null"),
				refused("operations.definitions.bind",
						(b) -> b.operation("bind", OperationDefinition.DEFAULT)
							.operation("bind", OperationDefinition.DEFAULT),
						"operation(\"bind\", …)", "bind", "given twice"),
				refused("metrics", (b) -> b.metric(null), "metric(…)", null, "must not be null"),
				refused("common-tags", (b) -> b.commonTags(null), "commonTags(…)", null, "must not be null"),
				refused("meter-prefixes", (b) -> b.meterPrefixes((String[]) null), "meterPrefixes(…)", null,
						"must not be null"),
				refused("disabled-metrics", (b) -> b.disabledMetrics(null), "disabledMetrics(…)", null,
						"must not be null"),
				refused("label-allow-list", (b) -> b.labelAllowList(null, "zone", "a"), "labelAllowList(…)", null,
						"needs the metric's name"),
				refused("label-allow-list.widgets_x_total.null", (b) -> b.labelAllowList("widgets_x_total", null, "a"),
						"labelAllowList(…) key \"widgets_x_total\" key \"null\"", null, "snake_case"),
				refused("label-allow-list.widgets_x_total.zone",
						(b) -> b.labelAllowList("widgets_x_total", "zone", (String[]) null),
						"labelAllowList(…) key \"widgets_x_total\" key \"zone\"", null, "at least one value"),
				refused("metrics.observability_errors_total",
						(b) -> b.metric(MetricDefinition.counter("observability_errors_total").help("Mine.").build()),
						"metric(MetricDefinition \"observability_errors_total\")", "observability_errors_total",
						"one of the metrics the starter keeps about itself"),
				refused("metrics.hidden_metrics",
						(b) -> b.metric(MetricDefinition.gauge("hidden_metrics").help("Mine.").build()),
						"metric(MetricDefinition \"hidden_metrics\")", "hidden_metrics",
						"one of the metrics the starter keeps about itself"),
				refused("label-allow-list.widgets_x_total.zone",
						(b) -> b.metric(MetricDefinition.counter("x_total").help("X.").labels("zone").build())
							.namespace("widgets")
							.maxLabelValueLength(5)
							.labelAllowList("widgets_x_total", "zone", "us-east-1a"),
						"labelAllowList(…) key \"widgets_x_total\" key \"zone\"", "us-east-1a",
						"longer than the longest label value kept (5 characters)"),
				refused("label-allow-list.widgets_x_total.name",
						(b) -> b.metric(MetricDefinition.counter("x_total").help("X.").perObject().build())
							.namespace("widgets")
							.labelAllowList("widgets_x_total", "name", "web"),
						"labelAllowList(…) key \"widgets_x_total\" key \"name\"", Set.of("web"),
						"'name' names the object of the per-object metric widgets_x_total"),
				refused("common-tags.kind", (b) -> b.operationTags("kind").commonTags(Tags.of("kind", "common")),
						"commonTags(…) key \"kind\"", "common",
						"'kind' is also an operation tag (ControllerObservability.Builder.operationTags(…))"),
				refused("common-tags.zone",
						(b) -> b.metric(MetricDefinition.counter("x_total").help("X.").labels("zone").build())
							.commonTags(Tags.of("zone", "common")),
						"commonTags(…) key \"zone\"", "common", "'zone' is also a label of controller_x_total"),
				refused("operations.max-operations", (b) -> b.maxOperations(0), "maxOperations(…)", 0, "at least 1"),
				refused("max-label-values", (b) -> b.maxLabelValues(0), "maxLabelValues(…)", 0, "at least 1"),
				refused("max-label-value-length", (b) -> b.maxLabelValueLength(-1), "maxLabelValueLength(…)", -1,
						"at least 1"),
				refused("max-series-per-metric", (b) -> b.maxSeriesPerMetric(0), "maxSeriesPerMetric(…)", 0,
						"at least 1"),
				refused("version", (b) -> b.version("next"), "version(…)", "next", "MAJOR.MINOR.PATCH"),
				refused("show-hidden-metrics-for-version", (b) -> b.version("1.5.0").showHiddenMetricsForVersion("1.3"),
						"showHiddenMetricsForVersion(…)", "1.3", "previous minor"),
				refused("disabled-metrics[0]", (b) -> b.disabledMetrics(List.of("karpenter-old")),
						"disabledMetrics(…) element 0", "karpenter-old", "disables nothing"),
				refused("label-allow-list.karpenter_nodes_total.zone",
						(b) -> b.labelAllowList("karpenter_nodes_total", "zone"),
						"labelAllowList(…) key \"karpenter_nodes_total\" key \"zone\"", List.of(),
						"at least one value"),
				refused("metrics.nodes_total.help",
						(b) -> b.metric(MetricDefinition.counter("nodes_total").help(" ").build()),
						"metric(MetricDefinition \"nodes_total\") help", " ", "help"),
				refused("operations.definitions.allocation_bind",
						(b) -> b.namespace("karpenter")
							.operation("bind", new OperationDefinition("allocation", null, List.of(), null))
							.operation("allocation_bind", OperationDefinition.DEFAULT),
						"operation(\"allocation_bind\", …)", "allocation_bind",
						"operations 'bind' and 'allocation_bind' are both recorded as "
								+ "karpenter_allocation_bind_duration_seconds"),
				refused("metrics.bind_duration_seconds",
						(b) -> b.namespace("karpenter")
							.operation("bind", OperationDefinition.DEFAULT)
							.metric(MetricDefinition.histogram("bind_duration_seconds").help("Binds.").build()),
						"metric(MetricDefinition \"bind_duration_seconds\")", "bind_duration_seconds",
						"karpenter_bind_duration_seconds is the duration histogram of operation 'bind'"),
				refused("metrics.bind_duration_seconds_max",
						(b) -> b.namespace("karpenter")
							.operation("bind", OperationDefinition.DEFAULT)
							.metric(MetricDefinition.gauge("bind_duration_seconds_max").help("Binds.").build()),
						"metric(MetricDefinition \"bind_duration_seconds_max\")", "bind_duration_seconds_max",
						"karpenter_bind_duration_seconds_max is the maximum gauge of operation 'bind'"),
				refused("metrics.bind_in_flight",
						(b) -> b.namespace("karpenter")
							.operation("bind", OperationDefinition.DEFAULT)
							.metric(MetricDefinition.gauge("bind_in_flight").help("Binds.").build()),
						"metric(MetricDefinition \"bind_in_flight\")", "bind_in_flight",
						"karpenter_bind_in_flight is the in-flight gauge of operation 'bind'"),
				refused("disabled-metrics[1]",
						(b) -> b.namespace("karpenter")
							.operation("bind", OperationDefinition.DEFAULT)
							.disabledMetrics(List.of("karpenter_old_total", "karpenter_bind_duration_seconds_bucket")),
						"disabledMetrics(…) element 1", "karpenter_bind_duration_seconds_bucket",
						"is a series of the histogram karpenter_bind_duration_seconds, and disabledMetrics(…) takes "
								+ "whole metrics"),
				refused("disabled-metrics[0]",
						(b) -> b.namespace("karpenter")
							.metric(MetricDefinition.histogram("packing_seconds").help("Packing.").build())
							.disabledMetrics(List.of("karpenter_packing_seconds_count")),
						"disabledMetrics(…) element 0", "karpenter_packing_seconds_count",
						"is a series of the histogram karpenter_packing_seconds"),
				refused("disabled-metrics[0]",
						(b) -> b.namespace("karpenter")
							.metric(MetricDefinition.histogram("packing_seconds").help("Packing.").build())
							.disabledMetrics(List.of("karpenter_packing_seconds_max")),
						"disabledMetrics(…) element 0", "karpenter_packing_seconds_max",
						"is a series of the histogram karpenter_packing_seconds"),
				refused("label-allow-list.karpenter_nodes_total.zome",
						(b) -> b.namespace("karpenter")
							.metric(MetricDefinition.counter("nodes_total").help("Nodes.").labels("zone").build())
							.labelAllowList("karpenter_nodes_total", "zome", "a"),
						"labelAllowList(…) key \"karpenter_nodes_total\" key \"zome\"", "zome",
						"karpenter_nodes_total has no label 'zome'; its labels are [zone]"),
				refused("label-allow-list.karpenter_bind_duration_seconds.zone",
						(b) -> b.namespace("karpenter")
							.operationTags("provisioner")
							.labelAllowList("karpenter_bind_duration_seconds", "zone", "a"),
						"labelAllowList(…) key \"karpenter_bind_duration_seconds\" key \"zone\"", "zone",
						"an allow-list of an operation's duration histogram may name its operation tags "
								+ "[provisioner] (ControllerObservability.Builder.operationTags(…)) and error"),
				refused("label-allow-list.karpenter_nodes_lanched_total",
						(b) -> b.namespace("karpenter")
							.metric(MetricDefinition.counter("nodes_launched_total").help("Nodes.").build())
							.labelAllowList("karpenter_nodes_lanched_total", "zone", "a"),
						"labelAllowList(…) key \"karpenter_nodes_lanched_total\"", "karpenter_nodes_lanched_total",
						"is neither a declared metric nor an operation's duration histogram"));
	}

	private static Arguments refused(String property, UnaryOperator<ControllerObservability.Builder> setting,
			String builderCall, Object value, String reason) {
		return Arguments.of(property, setting, builderCall, value, reason);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("refusedSettings")
	void refusesWhenItBuildsNamingTheBuilderMethod(String property,
			UnaryOperator<ControllerObservability.Builder> setting, String builderCall, Object value, String reason) {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerObservability.Builder builder = setting.apply(ControllerObservability.builder(registry));
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(builder::build).satisfies((ex) -> {
			assertThat(ex.getProperty()).isEqualTo(property);
			assertThat(ex.getBuilderCall()).isEqualTo("ControllerObservability.Builder." + builderCall);
			assertThat(ex.getValue()).isEqualTo(value);
			assertThat(ex.getReason()).contains(reason);
			assertThat(ex.getMessage()).startsWith("ControllerObservability.Builder." + builderCall + " = ")
				.contains(ex.getReason())
				.contains(ex.getAction())
				.doesNotContain("controller.observability");
		});
		assertThat(registry.getMeters()).as("nothing registered when a setting is refused").isEmpty();
	}

	@Test
	void refusesAHistogramTheRegistryWouldBucketWronglyBeforeAddingAnythingToIt() {
		SimpleMeterRegistry child = new SimpleMeterRegistry();
		CompositeMeterRegistry registry = new CompositeMeterRegistry(Clock.SYSTEM, List.of(child));
		ControllerObservability.Builder builder = ControllerObservability.builder(registry)
			.namespace("widgets")
			.metric(MetricDefinition.histogram("fill_ratio").help("Fill.").unit("ratio").buckets(0.5, 1).build());
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(builder::build).satisfies((ex) -> {
			assertThat(ex.getProperty()).isEqualTo("metrics.fill_ratio.buckets");
			assertThat(ex.getBuilderCall()).startsWith("ControllerObservability.Builder.metric(");
			assertThat(ex.getValue()).isEqualTo(List.of(0.5, 1.0));
			assertThat(ex.getReason()).startsWith("on this registry (CompositeMeterRegistry of [SimpleMeterRegistry])");
			assertThat(ex.getAction()).contains("or record to a PrometheusMeterRegistry alone");
		});
		child.counter("after").increment();
		assertThat(child.getMeters()).as("no meter and no filter added")
			.extracting((meter) -> meter.getId().getName())
			.containsExactly("after");
	}

	@Test
	void deniesAMeterOfOnesOwnThatWouldTakeTheNameOfADeclaredMetric() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerObservability observability = ControllerObservability.builder(registry)
			.namespace("w")
			.meterPrefixes("jobs")
			.metric(MetricDefinition.counter("jobs_done_total").help("Jobs done.").build())
			.metric(MetricDefinition.gauge("bind_in_flight").help("Binds waiting.").build())
			.build();
		observability.metrics().counter("jobs_done_total").increment();
		observability.metrics().gauge("bind_in_flight").set(5);
		Counter.builder("jobs.done").register(registry).increment(10);
		observability.operations().observe("bind", Tags.empty(), () -> "bound");
		observability.metrics().counter("jobs_done_total").increment();
		String scrape = registry.scrape();
		assertThat(scrape).contains("# HELP w_jobs_done_total [ALPHA] Jobs done.", "w_jobs_done_total 2.0",
				"# HELP w_bind_in_flight [ALPHA] Binds waiting.", "w_bind_in_flight 5.0");
		assertThat(observability.failures().count()).isEqualTo(2);
	}

	@Test
	void runsCollectorsAtTheStartOfEveryScrapeOfAPrometheusRegistry() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerMetrics metrics = ControllerObservability.builder(registry)
			.namespace("widgets")
			.metric(MetricDefinition.gauge("queue_depth").help("Items waiting.").build())
			.build()
			.metrics();
		int[] calls = new int[1];
		metrics.collect("queue_depth", (samples) -> samples.add(++calls[0]));
		assertThat(registry.scrape()).contains("widgets_queue_depth 1.0");
		assertThat(registry.getPrometheusRegistry().scrape().get(0)).isNotNull();
		assertThat(registry.scrape()).contains("widgets_queue_depth 3.0");
	}

	@Test
	void buildsWithEverySettingGiven() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerObservability observability = ControllerObservability.builder(registry)
			.namespace("widgets")
			.operationTags("kind")
			.commonTags(Tags.of("cluster", "dev"))
			.durationBuckets(List.of(0.1, 1.0))
			.meterPrefixes("cloud.api")
			.errorLogInterval(Duration.ZERO)
			.operation("apply-packing", new OperationDefinition("allocation_controller", "Packs.", List.of(), null))
			.maxOperations(1)
			.maxLabelValues(1)
			.maxLabelValueLength(16)
			.maxSeriesPerMetric(5)
			.version("1.5.0")
			.showHiddenMetricsForVersion("1.4")
			.disabledMetrics(List.of("widgets_old_total"))
			.labelAllowList("widgets_allocation_controller_apply_packing_duration_seconds", "kind", "ConfigMap")
			.metric(MetricDefinition.counter("nodes_total").help("Nodes.").labels("zone").build())
			.build();
		observability.operations().observe("apply-packing", Tags.of("kind", "ConfigMap"), () -> {
		});
		observability.operations().observe("apply-packing", Tags.of("kind", "Secret"), () -> {
		});
		assertThat(registry.get("widgets.allocation_controller.apply_packing.duration")
			.tags("cluster", "dev", "kind", "ConfigMap")
			.timer()
			.count()).as("an allowed value").isEqualTo(1);
		assertThat(registry.get("widgets.allocation_controller.apply_packing.duration")
			.tags("cluster", "dev", "kind", "unexpected")
			.timer()
			.count()).as("a value outside the allow-list").isEqualTo(1);
		observability.metrics().counter("nodes_total", "zone", "a").increment();
		observability.metrics().counter("nodes_total", "zone", "averyveryverylongzone").increment();
		assertThat(registry.get("widgets.nodes").tags("zone", "unexpected").counter().count())
			.as("the per-label cap of 1 turns the second zone into unexpected")
			.isEqualTo(1);
		observability.operations().observe("launch", Tags.empty(), () -> {
		});
		observability.operations().observe("terminate", Tags.empty(), () -> {
		});
		assertThat(registry.find("widgets.terminate.duration").timer())
			.as("a second undeclared operation is beyond maxOperations(1)")
			.isNull();
		assertThat(registry.get("widgets.launch.duration").timer().count()).isEqualTo(1);
	}

	@Test
	void namesTheBuilderMethodsACrossCheckSuggests() {
		assertThat(actionOf((b) -> b.operation("bind", new OperationDefinition("allocation", null, List.of(), null))
			.operation("allocation_bind", OperationDefinition.DEFAULT)))
			.isEqualTo("Give one of them another name or a different "
					+ "ControllerObservability.Builder.operation(\"<operation>\", …) subsystem");
		assertThat(actionOf((b) -> b.operation("bind", OperationDefinition.DEFAULT)
			.metric(MetricDefinition.histogram("bind_duration_seconds").help("Binds.").build())))
			.isEqualTo("Rename the metric, or give operation 'bind' a subsystem under "
					+ "ControllerObservability.Builder.operation(…)");
		assertThat(actionOf((b) -> b.operation("bind", new OperationDefinition("issuer", null, List.of(), null))
			.metric(MetricDefinition.histogram("issuer_bind_duration_seconds").help("Binds.").build())))
			.isEqualTo("Rename the metric, or change the subsystem 'issuer' of operation 'bind' under "
					+ "ControllerObservability.Builder.operation(…)");
		assertThat(actionOf(
				(b) -> b.operationTags("provisioner").labelAllowList("controller_bind_duration_seconds", "zone", "a")))
			.isEqualTo("Add zone to ControllerObservability.Builder.operationTags(…), or allow-list one of those");
		assertThat(actionOf((b) -> b.labelAllowList("controller_nodes_total", "zone", "a")))
			.isEqualTo("Key the allow-list by the exposed name of a declared metric or of an operation's duration "
					+ "histogram, such as controller_bind_duration_seconds");
	}

	private static String actionOf(UnaryOperator<ControllerObservability.Builder> setting) {
		ControllerObservability.Builder builder = setting
			.apply(ControllerObservability.builder(new SimpleMeterRegistry()));
		return assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(builder::build).actual().getAction();
	}

	@Test
	void suggestsAnotherNameForASelfMetricNameThatIsItselfAccepted() {
		InvalidSettingException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
				InvalidSettingException.class,
				() -> ControllerObservability.builder(new SimpleMeterRegistry())
					.metric(MetricDefinition.counter("observability_errors_total").help("Mine.").build())
					.build());
		assertThat(refused.getReason()).startsWith("controller_observability_errors_total is one of the metrics");
		String suggested = refused.getAction().replaceAll(".*'(.*)'.*", "$1");
		assertThat(suggested).isEqualTo("observability_errors_of_controller_total");
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerObservability.builder(registry)
			.metric(MetricDefinition.counter(suggested).help("Mine.").build())
			.build()
			.metrics()
			.counter(suggested)
			.increment();
		assertThat(registry.get("controller.observability_errors_of_controller").counter().count()).isEqualTo(1);
	}

	@Test
	void acceptsAnAllowListOfTheErrorLabelOfAnOperationHistogram() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerObservability observability = ControllerObservability.builder(registry)
			.namespace("widgets")
			.operation("apply", OperationDefinition.DEFAULT)
			.labelAllowList("widgets_apply_duration_seconds", "error", "none", "IllegalStateException")
			.build();
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> observability.operations().observe("apply", Tags.empty(), () -> {
				throw new IllegalArgumentException("bad");
			}));
		assertThat(registry.get("widgets.apply.duration").tags("error", "unexpected").timer().count()).isEqualTo(1);
	}

	@Test
	void refusesANullRegistryAtOnceNamingTheMethodAndTheFix() {
		ControllerObservability.Builder builder = ControllerObservability.builder(new SimpleMeterRegistry());
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> builder.observationRegistry(null))
			.withMessageStartingWith("observationRegistry(null): pass your ObservationRegistry, or leave the call out");
		assertThatExceptionOfType(NullPointerException.class).isThrownBy(() -> builder.operationHistograms(null))
			.withMessageStartingWith("operationHistograms(null): pass the application's PrometheusRegistry");
	}

	@Test
	void namesTheBuilderMethodWhenAnUndeclaredMetricIsRecorded() {
		ControllerObservability observability = ControllerObservability.builder(new SimpleMeterRegistry()).build();
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> observability.metrics().counter("nodes_total"))
			.withMessageContaining("ControllerObservability.Builder.metric(…)")
			.withMessageNotContaining("controller.observability");
	}

}
