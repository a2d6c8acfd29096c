package dev.controllerobservability.autoconfigure.rules;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.system.SystemMetricsAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.live.LiveMetrics;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.kubernetes.KubernetesObservabilityAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * What {@link LiveMetrics} reads from the registry's snapshots is what its text scrape
 * shows, read back: the starter's own collectors, operations on either backend, and
 * {@code _created} gauges when the exporter writes them.
 */
class LiveMetricsExpositionTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
						CompositeMeterRegistryAutoConfiguration.class, ObservationAutoConfiguration.class,
						ControllerObservabilityAutoConfiguration.class, ControllerRulesAndLintAutoConfiguration.class,
						KubernetesObservabilityAutoConfiguration.class, SystemMetricsAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter",
				"controller.observability.metrics.nodes.type=gauge",
				"controller.observability.metrics.nodes.help=Nodes.",
				"controller.observability.operations.definitions.bind.subsystem=scheduler");

	@Test
	void readsWhatTheTextScrapeShowsWithMicrometerOperations() {
		this.contextRunner
			.run((context) -> assertReadAsTextShows(context, "karpenter_scheduler_bind_duration_seconds"));
	}

	@Test
	void readsWhatTheTextScrapeShowsWithPrometheusOperations() {
		this.contextRunner.withPropertyValues("controller.observability.operations.backend=prometheus")
			.run((context) -> assertReadAsTextShows(context, "karpenter_scheduler_bind_duration_seconds"));
	}

	@Test
	void readsCreatedGaugesWhenTheExporterWritesThem() {
		this.contextRunner.withPropertyValues(
				"management.prometheus.metrics.export.properties[io.prometheus.exporter.includeCreatedTimestamps]=true")
			.run((context) -> assertReadAsTextShows(context, "karpenter_scheduler_bind_duration_seconds_created"));
	}

	@Test
	void readsNoCreatedGaugesByDefault() {
		this.contextRunner.run((context) -> {
			record(context);
			assertThat(context.getBean(LiveMetrics.class).exposition().families()).extracting(ExposedFamily::name)
				.noneMatch((name) -> name.endsWith("_created"));
		});
	}

	@Test
	void failsAsTheScrapeFailsWhenACollectorThrows() {
		this.contextRunner.run((context) -> {
			context.getBean(PrometheusMeterRegistry.class).getPrometheusRegistry().register((Collector) () -> {
				throw new IllegalStateException("collector broke");
			});
			LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
			assertThatIllegalStateException().isThrownBy(liveMetrics::scrape).withMessage("collector broke");
			assertThatIllegalStateException().isThrownBy(liveMetrics::exposition).withMessage("collector broke");
		});
	}

	private static void assertReadAsTextShows(AssertableApplicationContext context, String expectedFamily) {
		record(context);
		LiveMetrics liveMetrics = context.getBean(LiveMetrics.class);
		// Values move between two scrapes (process CPU, JVM memory), and a series may
		// appear in between (a first garbage collection): compare names and labels,
		// again until two scrapes agree.
		await().untilAsserted(() -> {
			Exposition read = liveMetrics.exposition();
			Exposition parsed = Exposition.parse(liveMetrics.scrape());
			assertThat(read.families()).containsExactlyElementsOf(parsed.families());
			assertThat(read.duplicateNames()).isEqualTo(parsed.duplicateNames());
			assertThat(namesAndLabels(read)).containsExactlyElementsOf(namesAndLabels(parsed));
		});
		assertThat(liveMetrics.exposition().families()).extracting(ExposedFamily::name)
			.contains(expectedFamily, "karpenter_nodes", "process_cpu_seconds_total", "karpenter_escaped_total");
	}

	private static void record(AssertableApplicationContext context) {
		context.getBean(ControllerMetrics.class).gauge("nodes").set(3);
		context.getBean(ControllerOperations.class).observe("bind", Tags.of("result", "ok"), () -> {
		});
		Counter.builder("karpenter.escaped")
			.description("Help \\ with \n escapes.")
			.tag("value", "quote \" backslash \\ newline \n")
			.register(context.getBean(PrometheusMeterRegistry.class))
			.increment();
	}

	private static List<Map.Entry<String, Map<String, String>>> namesAndLabels(Exposition exposition) {
		return exposition.samples().stream().map((sample) -> Map.entry(sample.name(), sample.labels())).toList();
	}

}
