package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random catalogs with one mistake each, among valid neighbours: start-up always fails as
 * a whole, with a failure analysis naming the metric's property.
 */
class InvalidCatalogPropertyTests {

	private static final String METRICS = "controller.observability.metrics.";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter");

	@Property(tries = 80)
	void everyCatalogMistakeStopsStartUpNamingTheProperty(@ForAll("catalogs") Catalog catalog) {
		this.contextRunner.withPropertyValues(catalog.properties()).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isNotNull();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
			assertThat(analysis.getDescription()).contains("Property: " + catalog.expectedProperty() + "\n");
			assertThat(analysis.getAction()).isNotBlank();
		});
	}

	@Property(tries = 20)
	void validNeighboursAloneStartAndRegister(@ForAll("validMetrics") List<Metric> metrics) {
		List<String> properties = new ArrayList<>();
		metrics.forEach((metric) -> properties.addAll(metric.properties()));
		this.contextRunner.withPropertyValues(properties.toArray(String[]::new)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(MetricCatalog.class).names())
				.containsExactlyInAnyOrderElementsOf(metrics.stream().map(Metric::name).distinct().toList());
		});
	}

	@Provide
	Arbitrary<Catalog> catalogs() {
		Arbitrary<Mistake> mistakes = Arbitraries.of(Mistake.values());
		return Combinators.combine(validMetric(), validMetric().list().ofMaxSize(3), mistakes)
			.as((target, neighbours, mistake) -> {
				List<String> properties = new ArrayList<>();
				neighbours.stream()
					.filter((neighbour) -> !neighbour.name().equals(target.name())
							&& !neighbour.name().equals(mistake.name(target)))
					.forEach((neighbour) -> properties.addAll(neighbour.properties()));
				properties.addAll(mistake.apply(target));
				return new Catalog(properties.toArray(String[]::new), mistake.expectedProperty(target));
			});
	}

	@Provide
	Arbitrary<List<Metric>> validMetrics() {
		return validMetric().list().ofMinSize(1).ofMaxSize(4).uniqueElements(Metric::name);
	}

	private static Arbitrary<Metric> validMetric() {
		Arbitrary<String> stems = Arbitraries.strings()
			.withCharRange('a', 'z')
			.ofMinLength(3)
			.ofMaxLength(10)
			.filter((stem) -> !stem.startsWith("karpenter"))
			.map((stem) -> "m" + stem);
		Arbitrary<String> types = Arbitraries.of("counter", "gauge", "histogram");
		Arbitrary<List<String>> labels = Arbitraries.of("provisioner", "zone", "phase", "result")
			.list()
			.ofMaxSize(3)
			.uniqueElements();
		return Combinators.combine(stems, types, labels, Arbitraries.of("ALPHA", "BETA", "STABLE", "INTERNAL"))
			.as((stem, type, labelKeys, level) -> new Metric(type.equals("counter") ? stem + "_total" : stem, type,
					labelKeys, level));
	}

	private static FailureAnalysis analyze(Throwable failure) {
		return ControllerObservabilityFailureAnalysis.analyze(failure);
	}

	/** A valid metric declaration. */
	record Metric(String name, String type, List<String> labels, String stability) {

		List<String> properties() {
			return new ArrayList<>(
					toMap().entrySet().stream().map((entry) -> entry.getKey() + "=" + entry.getValue()).toList());
		}

		Map<String, String> toMap() {
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put(METRICS + this.name + ".type", this.type);
			properties.put(METRICS + this.name + ".help", "Help of " + this.name + ".");
			properties.put(METRICS + this.name + ".stability", this.stability);
			if (!this.labels.isEmpty()) {
				properties.put(METRICS + this.name + ".labels", String.join(",", this.labels));
			}
			return properties;
		}

	}

	/** Properties with one mistake, and the property the analysis must name. */
	record Catalog(String[] properties, String expectedProperty) {

		@Override
		public String toString() {
			return String.join("\n", this.properties) + "\n-> " + this.expectedProperty;
		}

	}

	/** One way to get a declaration wrong. */
	enum Mistake {

		NAME_NOT_SNAKE_CASE((metric) -> "9" + metric.name(), null, Map.of()),

		RESERVED_NAME_PREFIX((metric) -> "__" + metric.name(), null, Map.of()),

		COUNTER_WITHOUT_TOTAL((metric) -> metric.name().replace("_total", "") + "_count", null,
				Map.of("type", "counter")),

		CREATED_SUFFIX((metric) -> metric.name().replace("_total", "") + "_created_total", null,
				Map.of("type", "counter")),

		MISSING_HELP(Metric::name, "help", Map.of("help", "")),

		UNKNOWN_TYPE(Metric::name, "type", Map.of("type", "timer")),

		UNKNOWN_LEVEL(Metric::name, "stability", Map.of("stability", "GA")),

		LABEL_NOT_SNAKE_CASE(Metric::name, "labels", Map.of("labels", "node-pool")),

		RESERVED_LABEL(Metric::name, "labels", Map.of("labels", "le")),

		UNSORTED_BUCKETS((metric) -> metric.name().replace("_total", "") + "_seconds", "buckets",
				Map.of("type", "histogram", "buckets", "1,0.5")),

		BUCKETS_ON_A_GAUGE((metric) -> metric.name().replace("_total", ""), "buckets",
				Map.of("type", "gauge", "buckets", "0.5,1")),

		NON_BASE_UNIT((metric) -> metric.name().replace("_total", "") + "_milliseconds", "unit",
				Map.of("type", "histogram", "unit", "milliseconds")),

		MALFORMED_VERSION(Metric::name, "deprecated-version", Map.of("deprecated-version", "1.4")),

		MISSPELT_LIST(Metric::name, "labls", Map.of("labls[0]", "issuer", "labls[1]", "key_type")),

		NAMED_LIKE_AN_OPERATION((metric) -> "bind_duration_seconds", null,
				Map.of("type", "histogram", "OPERATION", "bind")),

		REPLACES_ITSELF((metric) -> metric.name().replace("_total", "") + "_total", "replaces",
				Map.of("type", "counter", "replaces", "SELF", "renamed-in", "1.0.0"));

		private final Function<Metric, String> name;

		private final String field;

		private final Map<String, String> overrides;

		Mistake(Function<Metric, String> name, String field, Map<String, String> overrides) {
			this.name = name;
			this.field = field;
			this.overrides = overrides;
		}

		String name(Metric metric) {
			return this.name.apply(metric);
		}

		List<String> apply(Metric metric) {
			String name = name(metric);
			Map<String, String> properties = new LinkedHashMap<>();
			new Metric(name, metric.type(), metric.labels(), metric.stability()).toMap().forEach(properties::put);
			this.overrides.forEach((field, value) -> {
				if (field.equals("OPERATION")) {
					properties.put("controller.observability.operations.definitions." + value + ".description", "x");
				}
				else {
					properties.put(METRICS + name + "." + field, value.equals("SELF") ? name : value);
				}
			});
			if (this == MISSING_HELP) {
				properties.remove(METRICS + name + ".help");
			}
			return properties.entrySet().stream().map((entry) -> entry.getKey() + "=" + entry.getValue()).toList();
		}

		String expectedProperty(Metric metric) {
			return METRICS + name(metric) + ((this.field != null) ? "." + this.field : "");
		}

	}

}
