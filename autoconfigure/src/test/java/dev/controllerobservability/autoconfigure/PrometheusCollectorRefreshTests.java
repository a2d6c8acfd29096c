package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.catalog.PrometheusCollectorRefresh;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.stability.StabilityPolicy;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusCollectorRefreshTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	@Test
	void runsCollectorsAtEveryScrape() {
		PrometheusMeterRegistry registry = this.registry;
		ControllerMetrics metrics = controllerMetrics();
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

	@ParameterizedTest
	@EnumSource(Scrape.class)
	void refreshesOnceAndAddsNoFamilyInEveryKindOfScrape(Scrape scrape) {
		ControllerMetrics metrics = controllerMetrics();
		this.registry.getPrometheusRegistry().register(new PrometheusCollectorRefresh(metrics));
		AtomicInteger refreshes = new AtomicInteger();
		metrics.collect("queue_depth", (samples) -> samples.add(refreshes.incrementAndGet(), "queue", "pods"));
		this.registry.counter("karpenter.rounds").increment();
		MetricSnapshots snapshots = scrape.of(this.registry.getPrometheusRegistry());
		assertThat(refreshes).hasValue(1);
		List<String> names = snapshots.stream().map((snapshot) -> snapshot.getMetadata().getPrometheusName()).toList();
		if (scrape.filtered) {
			assertThat(names).containsExactly("karpenter_queue_depth");
		}
		else {
			assertThat(names).contains("karpenter_queue_depth", "karpenter_rounds").doesNotHaveDuplicates();
		}
		GaugeSnapshot depth = (GaugeSnapshot) snapshots.stream()
			.filter((snapshot) -> snapshot.getMetadata().getPrometheusName().equals("karpenter_queue_depth"))
			.findFirst()
			.orElseThrow();
		assertThat(depth.getDataPoints()).singleElement()
			.satisfies((point) -> assertThat(point.getValue()).isEqualTo(1));
	}

	@Test
	void contributesNoMetricOfItsOwnWhicheverVariantIsCalled() {
		ControllerMetrics metrics = controllerMetrics();
		AtomicInteger refreshes = new AtomicInteger();
		metrics.collect("queue_depth", (samples) -> refreshes.incrementAndGet());
		PrometheusCollectorRefresh refresh = new PrometheusCollectorRefresh(metrics);
		assertThat(refresh.getPrometheusName()).isNull();
		assertThat(refresh.collect()).isNull();
		assertThat(refresh.collect(Scrape.request())).isNull();
		assertThat(refresh.collect((name) -> false)).isNull();
		assertThat(refresh.collect((name) -> true, Scrape.request())).isNull();
		assertThat(refreshes).hasValue(4);
	}

	private ControllerMetrics controllerMetrics() {
		return new ControllerMetrics(this.registry,
				MetricCatalog.of("karpenter",
						List.of(MetricDefinition.gauge("queue_depth").help("Depth.").labels("queue").build())),
				StabilityPolicy.showAll(),
				CardinalityLimiter.builder(this.registry, "karpenter")
					.maxLabelValues(10)
					.maxLabelValueLength(10)
					.build(),
				new RecordingFailures(this.registry, "karpenter", Duration.ofMinutes(1)), List.of(1.0));
	}

	/** The four ways {@link PrometheusRegistry} can be scraped. */
	enum Scrape {

		PLAIN(false, PrometheusRegistry::scrape), REQUEST(false, (registry) -> registry.scrape(request())),
		FILTERED(true, (registry) -> registry.scrape("karpenter_queue_depth"::equals)),
		FILTERED_REQUEST(true, (registry) -> registry.scrape("karpenter_queue_depth"::equals, request()));

		private final boolean filtered;

		private final Function<PrometheusRegistry, MetricSnapshots> scrape;

		Scrape(boolean filtered, Function<PrometheusRegistry, MetricSnapshots> scrape) {
			this.filtered = filtered;
			this.scrape = scrape;
		}

		MetricSnapshots of(PrometheusRegistry registry) {
			return this.scrape.apply(registry);
		}

		private static PrometheusScrapeRequest request() {
			return new PrometheusScrapeRequest() {

				@Override
				public String getRequestPath() {
					return "/actuator/prometheus";
				}

				@Override
				public String[] getParameterValues(String name) {
					return null;
				}

			};
		}

	}

}
