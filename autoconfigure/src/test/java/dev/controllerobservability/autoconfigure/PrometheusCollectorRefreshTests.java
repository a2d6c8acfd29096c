package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.cardinality.CardinalityLimiter;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricCatalog;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.metrics.RecordingFailures;
import dev.controllerobservability.stability.StabilityPolicy;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusCollectorRefreshTests {

	@Test
	void runsCollectorsAtEveryScrape() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerMetrics metrics = new ControllerMetrics(registry,
				MetricCatalog.of("karpenter",
						List.of(MetricDefinition.gauge("queue_depth").help("Depth.").labels("queue").build())),
				StabilityPolicy.showAll(), CardinalityLimiter.builder(registry, "karpenter").maxLabelValues(10).maxLabelValueLength(10).build(),
				new RecordingFailures(registry, "karpenter", Duration.ofMinutes(1)), List.of(1.0));
		registry.getPrometheusRegistry().register(new PrometheusCollectorRefresh(metrics));
		AtomicInteger depth = new AtomicInteger(4);
		metrics.collect("queue_depth", (samples) -> {
			if (depth.get() > 0) {
				samples.add(depth.get(), "queue", "pods");
			}
		});
		assertThat(registry.scrape()).contains("karpenter_queue_depth{queue=\"pods\"} 4.0");
		depth.set(7);
		assertThat(registry.scrape()).contains("karpenter_queue_depth{queue=\"pods\"} 7.0");
		depth.set(0);
		assertThat(registry.scrape()).doesNotContain("karpenter_queue_depth{");
		assertThat(Set.of(registry.scrape().split("\n"))).noneMatch((line) -> line.startsWith("karpenter_queue_depth"));
	}

}
