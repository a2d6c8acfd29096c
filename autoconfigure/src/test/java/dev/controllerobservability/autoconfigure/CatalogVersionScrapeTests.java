package dev.controllerobservability.autoconfigure;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.test.PrometheusScrape;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same catalog scraped as different controller versions: a renamed STABLE metric's
 * old name is exposed for three minor versions after the rename, then hidden, and
 * {@code show-hidden-metrics-for-version} brings it back for one more.
 */
class CatalogVersionScrapeTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				PrometheusMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter",
				"controller.observability.metrics.nodes_launched_total.type=counter",
				"controller.observability.metrics.nodes_launched_total.help=Number of nodes launched.",
				"controller.observability.metrics.nodes_launched_total.stability=STABLE",
				"controller.observability.metrics.nodes_launched_total.replaces=node_launches_total",
				"controller.observability.metrics.nodes_launched_total.renamed-in=1.4.0");

	@ParameterizedTest(name = "version {0}, show hidden for {1}: old name exposed {2}")
	@CsvSource(nullValues = "none",
			value = { "1.4.0,none,true", "1.7.3,none,true", "1.8.0,none,false", "1.8.0,1.7,true", "1.9.0,1.8,false" })
	void exposesTheOldNameDuringTheWindowOnly(String version, String showHidden, boolean exposed) {
		ApplicationContextRunner runner = this.contextRunner
			.withPropertyValues("controller.observability.version=" + version);
		if (showHidden != null) {
			runner = runner
				.withPropertyValues("controller.observability.show-hidden-metrics-for-version=" + showHidden);
		}
		runner.run((context) -> {
			context.getBean(ControllerMetrics.class).counter("nodes_launched_total").increment(2);
			PrometheusScrape scrape = PrometheusScrape.parse(context.getBean(PrometheusMeterRegistry.class).scrape());
			assertThat(scrape.value("karpenter_nodes_launched_total", java.util.Map.of())).isEqualTo(2);
			if (exposed) {
				assertThat(scrape.value("karpenter_node_launches_total", java.util.Map.of())).isEqualTo(2);
				assertThat(scrape.help("karpenter_node_launches_total")).isEqualTo("[STABLE] (Deprecated since 1.4.0) "
						+ "Number of nodes launched. Replaced by karpenter_nodes_launched_total.");
				assertThat(scrape.value("karpenter_hidden_metrics_total", java.util.Map.of())).isZero();
			}
			else {
				assertThat(scrape.families()).doesNotContain("karpenter_node_launches_total");
				assertThat(scrape.value("karpenter_hidden_metrics_total", java.util.Map.of())).isEqualTo(1);
			}
		});
	}

}
