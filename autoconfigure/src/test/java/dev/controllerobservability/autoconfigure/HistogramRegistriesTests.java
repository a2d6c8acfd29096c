package dev.controllerobservability.autoconfigure;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.controllerobservability.catalog.ControllerMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A declared ratio histogram on each kind of registry Spring Boot can give the starter:
 * refused at start-up on a composite of several exports, where Micrometer would bucket
 * its values wrongly; kept there with whole-number buckets; recorded without buckets on
 * the simple registry of an application that exports nothing.
 */
class HistogramRegistriesTests {

	private static final String RATIO = "controller.observability.metrics.packing_efficiency_ratio.";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter");

	@Test
	void refusesAHistogramMicrometerWouldBucketWronglyOnACompositeOfExports() {
		this.contextRunner.withUserConfiguration(TwoExports.class)
			.withPropertyValues(ratio("0.25,0.5,1"))
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = ControllerObservabilityFailureAnalysis.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: " + RATIO + "buckets\n")
					.contains("on this registry (AutoConfiguredCompositeMeterRegistry of [PrometheusMeterRegistry, "
							+ "SimpleMeterRegistry]) packing_efficiency_ratio is a Micrometer distribution summary, and "
							+ "Micrometer rounds each value up to a whole number before it picks its bucket, so a "
							+ "value just above 0.0 is counted under le=\"1.0\", not le=\"0.25\"");
				assertThat(analysis.getAction()).startsWith("Declare boundaries that are whole numbers from 1 to 2^63")
					.contains("or record to a PrometheusMeterRegistry alone");
			});
	}

	@Test
	void namesTheDefaultBucketsWhenAHistogramWithoutItsOwnTakesThem() {
		String waits = "controller.observability.metrics.wait_seconds.";
		this.contextRunner.withUserConfiguration(TwoExports.class)
			.withPropertyValues(waits + "type=histogram", waits + "unit=seconds", waits + "help=Wait.",
					"controller.observability.duration-buckets=0.5,2")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = ControllerObservabilityFailureAnalysis.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: controller.observability.duration-buckets\n")
					.contains("wait_seconds has no buckets of its own and takes these, the default buckets");
			});
	}

	@Test
	void keepsAHistogramOfWholeNumberBucketsOnACompositeOfExports() {
		String pods = "controller.observability.metrics.pods_per_node.";
		this.contextRunner.withUserConfiguration(TwoExports.class)
			.withPropertyValues(pods + "type=histogram", pods + "help=Pods packed onto a node.", pods + "buckets=1,2,4")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(ControllerMetrics.class).histogram("pods_per_node").observe(1.5);
				DistributionSummary summary = context.getBean(SimpleMeterRegistry.class)
					.get("karpenter.pods_per_node")
					.summary();
				// 1.5, rounded up to 2, is in its true bucket: le="2.0".
				assertThat(summary.takeSnapshot().histogramCounts()).extracting(CountAtBucket::count)
					.containsExactly(0.0, 1.0, 1.0);
				assertThat(context.getBean(MeterRegistry.class)).isInstanceOf(CompositeMeterRegistry.class);
			});
	}

	@Test
	void recordsAHistogramWithoutBucketsOnTheSimpleRegistryOfAnApplicationThatExportsNothing() {
		this.contextRunner.withPropertyValues(ratio("0.25,0.5,1")).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(ControllerMetrics.class).histogram("packing_efficiency_ratio").observe(0.3);
			DistributionSummary summary = context.getBean(SimpleMeterRegistry.class)
				.get("karpenter.packing_efficiency_ratio")
				.summary();
			assertThat(summary.takeSnapshot().histogramCounts()).isEmpty();
			assertThat(summary.totalAmount()).isEqualTo(0.3);
		});
	}

	private static String[] ratio(String buckets) {
		return new String[] { RATIO + "type=histogram", RATIO + "unit=ratio",
				RATIO + "help=Share of a node's CPU requested.", RATIO + "buckets=" + buckets };
	}

	@Configuration(proxyBeanMethods = false)
	static class TwoExports {

		@Bean
		PrometheusMeterRegistry prometheusMeterRegistry() {
			return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		}

		@Bean
		SimpleMeterRegistry otherMeterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
