package dev.controllerobservability.catalog;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A million objects come and go through two per-object metrics, at most 100,000 alive at
 * any time, on a {@code PrometheusMeterRegistry}: the series track the live objects, the
 * heap after a collection stays flat, the scrape stays the same size, and the overflow
 * series stops growing once objects are forgotten.
 */
class PerObjectChurnTests {

	private static final int OBJECTS = 1_000_000;

	private static final int ALIVE = 100_000;

	/** Objects recorded beyond the series cap before any is forgotten. */
	private static final int OVERFLOWED = 10;

	private static final int SAMPLES = 10;

	@Test
	void seriesHeapAndScrapeFollowTheLiveObjectsThroughAMillionObjects() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		CardinalityLimiter limiter = CardinalityLimiter.builder(registry, "churn").maxSeriesPerMetric(ALIVE).build();
		ControllerMetrics metrics = new ControllerMetrics(registry, MetricCatalog.of("churn", List.of(
				MetricDefinition.counter("object_reconciles_total")
					.help("Reconciles of an object.")
					.labels("result")
					.perObject()
					.build(),
				MetricDefinition.gauge("object_ready_status").help("Whether an object is ready.").perObject().build())),
				new StabilityPolicy(Version.parse("1.0.0"), null, Set.of()), limiter,
				new RecordingFailures(registry, "churn", Duration.ofHours(1)), List.of(1.0));
		for (int i = 0; i < ALIVE + OVERFLOWED; i++) {
			record(metrics, i);
		}
		double overflows = overflows(registry);
		assertThat(overflows).isEqualTo(2 * OVERFLOWED);
		assertThat(overflowSeries(registry)).isEqualTo(OVERFLOWED);

		List<Long> heap = new ArrayList<>();
		List<Integer> scrapes = new ArrayList<>();
		int step = (OBJECTS - ALIVE - OVERFLOWED) / SAMPLES;
		int oldest = 0;
		for (int next = ALIVE + OVERFLOWED; next < OBJECTS; next++) {
			// The oldest object that got series of its own leaves, and a new one comes.
			assertThat(metrics.forget(ObjectRef.of("default", name(oldest)))).isEqualTo(2);
			oldest = (oldest + 1 == ALIVE) ? ALIVE + OVERFLOWED : oldest + 1;
			record(metrics, next);
			if ((next - ALIVE - OVERFLOWED + 1) % step == 0) {
				assertThat(metrics.liveObjects()).isEqualTo(ALIVE);
				assertThat(registry.find("churn.object_reconciles").counters()).hasSize(ALIVE + 1);
				assertThat(registry.find("churn.object_ready_status").gauges()).hasSize(ALIVE + 1);
				heap.add(heapAfterCollection());
				scrapes.add(registry.scrape().length());
			}
		}
		assertThat(overflows(registry)).isEqualTo(overflows);
		assertThat(overflowSeries(registry)).isEqualTo(OVERFLOWED);
		assertThat(heap).hasSize(SAMPLES);
		// Flat: the fitted growth over the whole run is within 5% of the heap it started
		// with.
		double growth = slope(heap) * (SAMPLES - 1);
		assertThat(Math.abs(growth)).as("heap growth over the run, bytes; samples %s", heap)
			.isLessThan(0.05 * heap.get(0));
		int first = scrapes.get(0);
		assertThat(scrapes).allSatisfy((size) -> assertThat(size).isBetween(first * 95 / 100, first * 105 / 100));
	}

	private static void record(ControllerMetrics metrics, int object) {
		ObjectRef ref = ObjectRef.of("default", name(object));
		metrics.counter("object_reconciles_total", ref, "result", "success").increment();
		metrics.gauge("object_ready_status", ref).set(1);
	}

	private static String name(int object) {
		return "object-" + (1_000_000 + object);
	}

	private static double overflows(PrometheusMeterRegistry registry) {
		return registry.get("churn.cardinality_enforcement_series_overflows").counter().count();
	}

	private static double overflowSeries(PrometheusMeterRegistry registry) {
		return registry.get("churn.object_reconciles").tag("name", "overflow").counter().count();
	}

	private static long heapAfterCollection() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			System.gc();
			least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
		}
		return least;
	}

	/** The least-squares slope of the samples against their index. */
	private static double slope(List<Long> samples) {
		int n = samples.size();
		double meanX = (n - 1) / 2.0;
		double meanY = samples.stream().mapToLong(Long::longValue).average().orElse(0);
		double covariance = 0;
		double variance = 0;
		for (int i = 0; i < n; i++) {
			covariance += (i - meanX) * (samples.get(i) - meanY);
			variance += (i - meanX) * (i - meanX);
		}
		return covariance / variance;
	}

}
