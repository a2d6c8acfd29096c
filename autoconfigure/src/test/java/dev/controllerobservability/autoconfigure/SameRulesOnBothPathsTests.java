package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.operations.OperationDefinition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each start-up check of the docs, the cross-checks between settings too, fed the same
 * bad value through the properties and through the core builder: both refuse it, for the
 * same reason, with the same fix, and name the same setting, as a property on one path
 * and as a builder call on the other (in the message and wherever the reason or fix
 * mentions another setting).
 */
class SameRulesOnBothPathsTests {

	private static final String PREFIX = "controller.observability.";

	/**
	 * The settings the cross-checks mention in their reason or fix, which each path names
	 * its own way.
	 */
	private static final List<Setting> MENTIONED = List.of(Setting.OPERATION_TAGS, Setting.OPERATION_DEFINITIONS,
			Setting.operation("<operation>").field("subsystem"), Setting.DISABLED_METRICS);

	private static final OperationDefinition BINDS = new OperationDefinition(null, "Binds.", List.of(), null);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class));

	static Stream<Arguments> badValues() {
		return Stream.of(bad("namespace", (b) -> b.namespace("Bad-Name"), "namespace=Bad-Name"),
				bad("namespace", (b) -> b.namespace("jvm"), "namespace=jvm"),
				bad("operations.tags[0]", (b) -> b.operationTags("le"), "operations.tags=le"),
				bad("operations.tags[1]", (b) -> b.operationTags("kind", "result"), "operations.tags=kind,result"),
				bad("operations.tags[0]", (b) -> b.operationTags("quantile"), "operations.tags=quantile"),
				bad("operations.tags[0]", (b) -> b.operationTags("error"), "operations.tags=error"),
				bad("operations.tags[1]", (b) -> b.operationTags("kind", "kind"), "operations.tags=kind,kind"),
				bad("operations.tags[0]", (b) -> b.operationTags("Kind-Name"), "operations.tags=Kind-Name"),
				bad("common-tags.quantile", (b) -> b.commonTags(Tags.of("quantile", "x")), "common-tags.quantile=x"),
				bad("common-tags.cluster", (b) -> b.commonTags(Tags.of("cluster", "")), "common-tags.cluster="),
				bad("duration-buckets[1]", (b) -> b.durationBuckets(List.of(1.0, 0.5)), "duration-buckets=1.0,0.5"),
				bad("duration-buckets[0]", (b) -> b.durationBuckets(List.of(-1.0, 0.5)), "duration-buckets=-1.0,0.5"),
				bad("duration-buckets[1]", (b) -> b.durationBuckets(List.of(0.5, 0.5)), "duration-buckets=0.5,0.5"),
				bad("duration-buckets[0]", (b) -> b.durationBuckets(List.of(1e-10)), "duration-buckets=1e-10"),
				bad("duration-buckets[0]", (b) -> b.durationBuckets(List.of(1e10)), "duration-buckets=1e10"),
				bad("meter-prefixes[0]", (b) -> b.meterPrefixes("http.server"), "meter-prefixes=http.server"),
				bad("meter-prefixes[0]", (b) -> b.meterPrefixes("Cloud-API"), "meter-prefixes=Cloud-API"),
				bad("error-log-interval", (b) -> b.errorLogInterval(Duration.ofSeconds(-5)), "error-log-interval=-5s"),
				bad("operations.definitions.bind.subsystem",
						(b) -> b.operation("bind", new OperationDefinition("Alloc-Ctrl", null, List.of(), null)),
						"operations.definitions.bind.subsystem=Alloc-Ctrl"),
				bad("operations.definitions.bind.buckets[1]",
						(b) -> b.operation("bind", new OperationDefinition(null, null, List.of(2.0, 1.0), null)),
						"operations.definitions.bind.buckets=2.0,1.0"),
				bad("operations.max-operations", (b) -> b.maxOperations(0), "operations.max-operations=0"),
				bad("max-label-values", (b) -> b.maxLabelValues(0), "max-label-values=0"),
				bad("max-label-value-length", (b) -> b.maxLabelValueLength(0), "max-label-value-length=0"),
				bad("max-series-per-metric", (b) -> b.maxSeriesPerMetric(0), "max-series-per-metric=0"),
				bad("label-allow-list.controller_x_total.zone",
						(b) -> b.metric(MetricDefinition.counter("x_total").help("X.").labels("zone").build())
							.maxLabelValueLength(5)
							.labelAllowList("controller_x_total", "zone", "us-east-1a"),
						"metrics.x_total.type=counter", "metrics.x_total.help=X.", "metrics.x_total.labels=zone",
						"max-label-value-length=5", "label-allow-list.controller_x_total.zone=us-east-1a"),
				bad("common-tags.kind", (b) -> b.operationTags("kind").commonTags(Tags.of("kind", "common")),
						"operations.tags=kind", "common-tags.kind=common"),
				bad("version", (b) -> b.version("next"), "version=next"),
				bad("show-hidden-metrics-for-version", (b) -> b.version("1.5.0").showHiddenMetricsForVersion("1.3"),
						"version=1.5.0", "show-hidden-metrics-for-version=1.3"),
				bad("disabled-metrics[0]", (b) -> b.disabledMetrics(List.of("karpenter-old")),
						"disabled-metrics=karpenter-old"),
				bad("label-allow-list.controller_x_total.name",
						(b) -> b.metric(MetricDefinition.counter("x_total").help("X.").perObject().build())
							.labelAllowList("controller_x_total", "name", "web"),
						"metrics.x_total.type=counter", "metrics.x_total.help=X.", "metrics.x_total.per-object=true",
						"label-allow-list.controller_x_total.name=web"),
				bad("metrics.seen.time-to-live",
						(b) -> b.metric(MetricDefinition.gauge("seen")
							.help("Seen.")
							.perObject()
							.timeToLive(Duration.ofMillis(500))
							.build()),
						"metrics.seen.type=gauge", "metrics.seen.help=Seen.", "metrics.seen.per-object=true",
						"metrics.seen.time-to-live=500ms"),
				bad("metrics.seen.labels",
						(b) -> b
							.metric(MetricDefinition.gauge("seen").help("Seen.").labels("name").perObject().build()),
						"metrics.seen.type=gauge", "metrics.seen.help=Seen.", "metrics.seen.per-object=true",
						"metrics.seen.labels=name"),
				bad("metrics.seen.label-values.name", (b) -> b
					.metric(MetricDefinition.gauge("seen").help("Seen.").perObject().labelValues("name", "a").build()),
						"metrics.seen.type=gauge", "metrics.seen.help=Seen.", "metrics.seen.per-object=true",
						"metrics.seen.label-values.name=a"),
				bad("label-allow-list.karpenter_nodes_total.Zone",
						(b) -> b.labelAllowList("karpenter_nodes_total", "Zone", "a"),
						"label-allow-list.karpenter_nodes_total.Zone=a"),
				bad("metrics.packing_seconds.buckets", (b) -> b.metric(
						MetricDefinition.histogram("packing_seconds").help("Packing time.").buckets(1.0, 0.5).build()),
						"metrics.packing_seconds.type=histogram", "metrics.packing_seconds.help=Packing time.",
						"metrics.packing_seconds.buckets=1.0,0.5"),
				bad("metrics.nodes_total.labels",
						(b) -> b.metric(new MetricDefinition("nodes_total", MetricType.COUNTER, "Nodes.", List.of("le"),
								null, null, null, null, null, null, null)),
						"metrics.nodes_total.type=counter", "metrics.nodes_total.help=Nodes.",
						"metrics.nodes_total.labels=le"),
				bad("operations.definitions.allocation_bind",
						(b) -> b.namespace("karpenter")
							.operation("bind", new OperationDefinition("allocation", null, List.of(), null))
							.operation("allocation_bind", new OperationDefinition(null, "Binds.", List.of(), null)),
						"namespace=karpenter", "operations.definitions.bind.subsystem=allocation",
						"operations.definitions.allocation_bind.description=Binds."),
				bad("metrics.bind_duration_seconds",
						(b) -> b.namespace("karpenter")
							.operation("bind", BINDS)
							.metric(MetricDefinition.histogram("bind_duration_seconds").help("Binds.").build()),
						"namespace=karpenter", "operations.definitions.bind.description=Binds.",
						"metrics.bind_duration_seconds.type=histogram", "metrics.bind_duration_seconds.help=Binds."),
				bad("metrics.issuer_bind_in_flight",
						(b) -> b.namespace("karpenter")
							.operation("bind", new OperationDefinition("issuer", null, List.of(), null))
							.metric(MetricDefinition.gauge("issuer_bind_in_flight").help("Binds.").build()),
						"namespace=karpenter", "operations.definitions.bind.subsystem=issuer",
						"metrics.issuer_bind_in_flight.type=gauge", "metrics.issuer_bind_in_flight.help=Binds."),
				bad("disabled-metrics[0]",
						(b) -> b.namespace("karpenter")
							.operation("bind", BINDS)
							.disabledMetrics(List.of("karpenter_bind_duration_seconds_bucket")),
						"namespace=karpenter", "operations.definitions.bind.description=Binds.",
						"disabled-metrics=karpenter_bind_duration_seconds_bucket"),
				bad("label-allow-list.karpenter_nodes_total.zome",
						(b) -> b.namespace("karpenter")
							.metric(MetricDefinition.counter("nodes_total").help("Nodes.").labels("zone").build())
							.labelAllowList("karpenter_nodes_total", "zome", "a"),
						"namespace=karpenter", "metrics.nodes_total.type=counter", "metrics.nodes_total.help=Nodes.",
						"metrics.nodes_total.labels=zone", "label-allow-list.karpenter_nodes_total.zome=a"),
				bad("label-allow-list.karpenter_bind_duration_seconds.zone",
						(b) -> b.namespace("karpenter")
							.operationTags("provisioner")
							.labelAllowList("karpenter_bind_duration_seconds", "zone", "a"),
						"namespace=karpenter", "operations.tags=provisioner",
						"label-allow-list.karpenter_bind_duration_seconds.zone=a"),
				bad("label-allow-list.karpenter_nodes_lanched_total",
						(b) -> b.namespace("karpenter")
							.metric(MetricDefinition.counter("nodes_launched_total").help("Nodes.").build())
							.labelAllowList("karpenter_nodes_lanched_total", "zone", "a"),
						"namespace=karpenter", "metrics.nodes_launched_total.type=counter",
						"metrics.nodes_launched_total.help=Nodes.",
						"label-allow-list.karpenter_nodes_lanched_total.zone=a"));
	}

	/** The text with each mentioned setting named as the properties name it. */
	private static String namedAsProperties(String text) {
		String named = text;
		for (Setting setting : MENTIONED) {
			named = named.replace(SettingNames.BUILDER.of(setting), SettingNames.PROPERTIES.of(setting));
		}
		for (Setting setting : MENTIONED) {
			named = named.replace(SettingNames.BUILDER.brief(setting), SettingNames.PROPERTIES.brief(setting));
		}
		return named;
	}

	private static Arguments bad(String property, UnaryOperator<ControllerObservability.Builder> builder,
			String... properties) {
		return Arguments.of(property, builder,
				Stream.of(properties).map((assignment) -> PREFIX + assignment).toArray(String[]::new));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badValues")
	void refusesTheSameValueForTheSameReasonOnBothPaths(String property,
			UnaryOperator<ControllerObservability.Builder> builder, String[] properties) {
		InvalidSettingException plain = catchRefusal(builder);
		assertThat(plain.getProperty()).isEqualTo(property);
		SameRefusal.assertSameRefusal(this.contextRunner, plain, SameRulesOnBothPathsTests::namedAsProperties,
				properties);
	}

	private static InvalidSettingException catchRefusal(UnaryOperator<ControllerObservability.Builder> builder) {
		ControllerObservability.Builder configured = builder
			.apply(ControllerObservability.builder(new SimpleMeterRegistry()));
		return assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(configured::build).actual();
	}

}
