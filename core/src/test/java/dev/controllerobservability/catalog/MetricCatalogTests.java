package dev.controllerobservability.catalog;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.catalog.MetricCatalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class MetricCatalogTests {

	@Test
	void refusesANullArrayOfBucketsNamingTheMetricAndTheFix() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> MetricDefinition.histogram("fill_ratio").buckets((double[]) null))
			.withMessage("Buckets of metric 'fill_ratio' are a null array; give the boundaries, such as "
					+ "buckets(0.25, 0.5, 1), or leave the call out for the default buckets");
	}

	@Test
	void namesMetersSoPrometheusExposesTheDeclaredName() {
		MetricCatalog catalog = MetricCatalog.of("karpenter",
				List.of(MetricDefinition.counter("nodes_launched_total").help("h").build(),
						MetricDefinition.builder("build_info", MetricType.INFO).help("h").build(),
						MetricDefinition.gauge("pending_pods").help("h").build()));
		assertThat(catalog.exposedName("nodes_launched_total")).isEqualTo("karpenter_nodes_launched_total");
		assertThat(catalog.meterName("nodes_launched_total", MetricType.COUNTER)).isEqualTo("karpenter.nodes_launched");
		assertThat(catalog.meterName("build_info", MetricType.INFO)).isEqualTo("karpenter.build.info");
		assertThat(catalog.meterName("pending_pods", MetricType.GAUGE)).isEqualTo("karpenter.pending_pods");
		assertThat(catalog.names()).containsExactly("build_info", "nodes_launched_total", "pending_pods");
	}

	@Test
	void rejectsANameThatIsNotSnakeCase() {
		assertInvalid(MetricDefinition.counter("Nodes-Launched_total"), null, "must be snake_case",
				"'nodes_launched_total'");
	}

	@Test
	void rejectsACounterWithoutTotal() {
		assertInvalid(MetricDefinition.counter("nodes_launched"), null, "a counter's name must end with _total",
				"Rename it to 'nodes_launched_total'");
	}

	@Test
	void rejectsTotalOnAnythingButACounter() {
		assertInvalid(MetricDefinition.gauge("pending_pods_total"), null, "only counters may end with _total",
				"'pending_pods'");
	}

	@Test
	void rejectsCreatedSuffixWithAProposal() {
		assertInvalid(MetricDefinition.counter("nodes_created_total"), null, "'_created' is reserved by OpenMetrics",
				"'nodes_launched_total'");
	}

	@Test
	void rejectsReservedSuffixes() {
		assertInvalid(MetricDefinition.gauge("pending_pods_count"), null, "'_count' is reserved", "'pending_pods'");
		assertInvalid(MetricDefinition.gauge("build_info"), null, "'_info' is reserved", "'build'");
	}

	@Test
	void rejectsAnInfoMetricWithoutInfo() {
		assertInvalid(MetricDefinition.builder("build", MetricType.INFO), null, "must end with _info", "'build_info'");
	}

	@Test
	void rejectsTheNamespaceInADeclaredName() {
		assertInvalid(MetricDefinition.counter("karpenter_nodes_total"), null, "do not carry the namespace",
				"Declare it as 'nodes_total'");
	}

	@Test
	void rejectsMissingHelp() {
		assertInvalid(MetricDefinition.counter("nodes_total").help(" "), "help", "every metric needs help text",
				"Describe what the metric counts");
	}

	@Test
	void rejectsInvalidAndDuplicateLabels() {
		assertInvalid(help(MetricDefinition.counter("nodes_total")).labels("Zone"), "labels", "must be snake_case",
				"'zone'");
		assertInvalid(help(MetricDefinition.histogram("wait_seconds")).labels("le"), "labels",
				"'le' and 'quantile' are set by Prometheus", "Choose another label name");
		assertInvalid(help(MetricDefinition.counter("nodes_total")).labels("zone", "zone"), "labels", "listed twice",
				"Remove the duplicate");
	}

	@Test
	void rejectsBadBuckets() {
		assertInvalid(help(MetricDefinition.histogram("wait_seconds")).buckets(1, 0.5), "buckets",
				"strictly increasing, but 0.5 follows 1.0", "[0.5, 1.0]");
		assertInvalid(help(MetricDefinition.gauge("pending_pods")).buckets(1), "buckets",
				"only histograms have buckets", "make it a histogram");
	}

	@Test
	void rejectsUnitsInTheWrongForm() {
		assertInvalid(help(MetricDefinition.histogram("wait_milliseconds")).unit("milliseconds"), "unit",
				"'milliseconds' is not one", "Record in seconds and set unit: seconds");
		assertInvalid(help(MetricDefinition.histogram("wait")).unit("seconds"), "unit",
				"the name must end with its unit", "'wait_seconds'");
		assertInvalid(help(MetricDefinition.counter("sent_total")).unit("bytes"), "unit",
				"the name must end with its unit", "'sent_bytes_total'");
		assertInvalid(help(MetricDefinition.gauge("load_furlongs")).unit("furlongs"), "unit",
				"'furlongs' is not a Prometheus base unit", "[amperes, bytes");
	}

	@Test
	void rejectsMalformedVersions() {
		assertInvalid(help(MetricDefinition.counter("nodes_total")).deprecatedVersion("1.4"), "deprecated-version",
				"MAJOR.MINOR.PATCH", "Write it like 1.4.0");
		assertInvalid(help(MetricDefinition.counter("nodes_total")).replaces("node_total", "soon"), "renamed-in",
				"MAJOR.MINOR.PATCH", "Write it like 1.4.0");
	}

	@Test
	void rejectsBadReplacements() {
		assertInvalid(help(MetricDefinition.counter("nodes_total")).replaces("nodes_total", "1.0.0"), "replaces",
				"cannot replace itself", "old name");
		assertInvalid(help(MetricDefinition.counter("nodes_total")).replaces("nodes", "1.0.0"), "replaces",
				"a counter's name must end with _total", "'nodes_total'");
		assertInvalid(help(MetricDefinition.counter("nodes_total")).replaces("old_nodes_total", null), "renamed-in",
				"counted from the version that renamed it", "such as 1.4.0");
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> MetricCatalog.of("karpenter",
					List.of(help(MetricDefinition.counter("nodes_total")).replaces("old_total", "1.0.0").build(),
							help(MetricDefinition.counter("old_total")).build())))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("replaces"))
			.withMessageContaining("still declared as a metric of its own");
	}

	@Test
	void rejectsUnknownOrBadLabelValues() {
		assertInvalid(help(MetricDefinition.counter("rounds_total")).labels("result").labelValues("zone", "a"),
				"label-values", "'zone' is not one of the metric's labels", "Add it to labels");
		assertInvalid(help(MetricDefinition.counter("rounds_total")).labels("result").labelValues("result", "a", "a"),
				"label-values", "must be distinct", "List each value once");
	}

	@Test
	void rejectsADuplicateDeclaration() {
		MetricDefinition definition = help(MetricDefinition.counter("nodes_total")).build();
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> MetricCatalog.of("karpenter", List.of(definition, definition)))
			.withMessageContaining("declared twice");
	}

	private static MetricDefinition.Builder help(MetricDefinition.Builder builder) {
		return builder.help("Help.");
	}

	private static void assertInvalid(MetricDefinition.Builder builder, String field, String reason, String action) {
		MetricDefinition definition = builder.build();
		MetricDefinition complete = (definition.help() == null) ? help(builder).build() : definition;
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> MetricCatalog.of("karpenter", List.of(complete)))
			.satisfies((ex) -> {
				assertThat(ex.getField()).isEqualTo(field);
				assertThat(ex.getReason()).contains(reason);
				assertThat(ex.getAction()).contains(action);
			});
	}

}
