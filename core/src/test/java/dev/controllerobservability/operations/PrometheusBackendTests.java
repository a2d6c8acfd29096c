package dev.controllerobservability.operations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.stability.StabilityLevel;
import dev.controllerobservability.internal.test.Allocations;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Operations recorded straight into prometheus-metrics-core histograms: the same series
 * and buckets as with Micrometer timers, native buckets besides, a {@code _max} gauge
 * only where the stability contract includes one, and no allocation per call.
 */
class PrometheusBackendTests {

	private final MockClock clock = new MockClock();

	private final PrometheusRegistry prometheus = new PrometheusRegistry();

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
			this.prometheus, this.clock);

	private final ControllerObservability observability = ControllerObservability.builder(this.registry)
		.namespace("karpenter")
		.operationTags("provisioner")
		.commonTags(Tags.of("cluster", "dev"))
		.operation("launch", new OperationDefinition(null, null, List.of(0.5, 2.0), StabilityLevel.STABLE))
		.disabledMetrics(List.of("karpenter_evict_duration_seconds"))
		.operationHistograms(this.prometheus)
		.build();

	private final ControllerOperations operations = this.observability.operations();

	@Test
	void recordsTheClassicSeriesOfTheMicrometerBackend() {
		for (int i = 0; i < 3; i++) {
			this.operations.observe("bind", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(30)));
		}
		assertThatIllegalStateException()
			.isThrownBy(() -> this.operations.observe("bind", Tags.of("provisioner", "gpu"), (Runnable) () -> {
				this.clock.add(Duration.ofSeconds(3));
				throw new IllegalStateException("no node");
			}));
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		Map<String, String> success = Map.of("cluster", "dev", "error", "none", "provisioner", "gpu", "result",
				"success");
		assertThat(scrape.value("karpenter_bind_duration_seconds_count", success)).isEqualTo(3);
		assertThat(scrape.value("karpenter_bind_duration_seconds_sum", success)).isCloseTo(0.09, within());
		assertThat(scrape.value("karpenter_bind_duration_seconds_bucket", with(success, "le", "0.025"))).isZero();
		assertThat(scrape.value("karpenter_bind_duration_seconds_bucket", with(success, "le", "0.05"))).isEqualTo(3);
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("cluster", "dev", "error", "IllegalStateException", "provisioner", "gpu", "result", "error")))
			.isEqualTo(1);
		assertThat(scrape.value("karpenter_bind_in_flight", Map.of("cluster", "dev", "provisioner", "gpu"))).isZero();
		assertThat(scrape.families()).doesNotContain("karpenter_bind_duration_seconds_max");
	}

	@Test
	void addsNativeBucketsForScrapersThatAskForThem() {
		this.operations.observe("bind", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(30)));
		HistogramSnapshot histogram = (HistogramSnapshot) this.prometheus.scrape()
			.stream()
			.filter((snapshot) -> snapshot.getMetadata().getPrometheusName().equals("karpenter_bind_duration_seconds"))
			.findFirst()
			.orElseThrow();
		HistogramSnapshot.HistogramDataPointSnapshot point = histogram.getDataPoints().get(0);
		assertThat((Object) point.getLabels())
			.isEqualTo(Labels.of("cluster", "dev", "error", "none", "provisioner", "gpu", "result", "success"));
		assertThat(point.hasNativeHistogramData()).isTrue();
		assertThat(point.getNativeSchema()).isEqualTo(3);
		assertThat(point.getNativeBucketsForPositiveValues().size()).isEqualTo(1);
		assertThat(point.getNativeBucketsForPositiveValues().getCount(0)).isEqualTo(1);
		assertThat(point.hasClassicHistogramData()).isTrue();
	}

	@Test
	void keepsTheMaxGaugeOfOperationsWhoseContractIncludesIt() {
		this.operations.observe("launch", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofSeconds(1)));
		this.operations.observe("launch", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(10)));
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		Map<String, String> labels = Map.of("cluster", "dev", "error", "none", "provisioner", "gpu", "result",
				"success");
		assertThat(scrape.value("karpenter_launch_duration_seconds_max", labels)).isEqualTo(1.0);
		assertThat(scrape.value("karpenter_launch_duration_seconds_bucket", with(labels, "le", "0.5"))).isEqualTo(1);
		assertThat(scrape.help("karpenter_launch_duration_seconds_max")).startsWith("[STABLE]");
		assertThat(names(this.operations.families("launch", List.of("cluster"), List.of()))).containsExactly(
				"karpenter_launch_duration_seconds", "karpenter_launch_duration_seconds_max",
				"karpenter_launch_in_flight");
		assertThat(names(this.operations.families("bind", List.of("cluster"), List.of())))
			.containsExactly("karpenter_bind_duration_seconds", "karpenter_bind_in_flight");
	}

	@Test
	void leavesTheDurationsToThePrometheusRegistryOnly() {
		this.operations.observe("bind", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(30)));
		assertThat(this.registry.find("karpenter.bind.duration").meters()).isEmpty();
		assertThat(this.registry.find("karpenter.bind.in_flight").gauge()).isNotNull();
		HistogramSnapshot histogram = (HistogramSnapshot) this.prometheus
			.scrape("karpenter_bind_duration_seconds"::equals)
			.get(0);
		assertThat(histogram.getDataPoints().get(0).getExemplars().size()).isZero();
	}

	@Test
	void recordsIntoTheSameHistogramsThroughAnObservationRegistry() {
		PrometheusRegistry prometheus = new PrometheusRegistry();
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, prometheus,
				this.clock);
		ObservationRegistry observations = ObservationRegistry.create();
		List<String> seen = new ArrayList<>();
		observations.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStart(Observation.Context context) {
				seen.add(context.getName());
			}

		});
		ControllerOperations traced = ControllerObservability.builder(registry)
			.namespace("karpenter")
			.observationRegistry(observations)
			.operationHistograms(prometheus)
			.build()
			.operations();
		traced.observe("bind", Tags.empty(), () -> {
			this.clock.add(Duration.ofMillis(30));
			assertThat(PrometheusScrape.parse(registry.scrape()).value("karpenter_bind_in_flight", Map.of()))
				.isEqualTo(1);
		});
		assertThat(traced.isRecordingDirectly()).isFalse();
		assertThat(seen).hasSize(1);
		PrometheusScrape scrape = PrometheusScrape.parse(registry.scrape());
		assertThat(scrape.value("karpenter_bind_duration_seconds_count", Map.of("error", "none", "result", "success")))
			.isEqualTo(1);
		assertThat(scrape.value("karpenter_bind_in_flight", Map.of())).isZero();
	}

	@Test
	void registersAHistogramAndItsMaxTogetherOrNeither() {
		GaugeWithCallback taken = GaugeWithCallback.builder()
			.name("karpenter_launch_duration_seconds_max")
			.help("Taken.")
			.callback((callback) -> callback.call(1))
			.register(this.prometheus);
		String result = this.operations.observe("launch", Tags.of("provisioner", "gpu"), () -> "launched");
		assertThat(result).isEqualTo("launched");
		assertThat(this.observability.failures().count()).isEqualTo(1);
		assertThat(PrometheusScrape.parse(this.registry.scrape()).families())
			.doesNotContain("karpenter_launch_duration_seconds");
		this.prometheus.unregister(taken);
		this.operations.observe("launch", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofSeconds(1)));
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.families()).contains("karpenter_launch_duration_seconds",
				"karpenter_launch_duration_seconds_max");
		assertThat(scrape.value("karpenter_launch_duration_seconds_count",
				Map.of("cluster", "dev", "error", "none", "provisioner", "gpu", "result", "success")))
			.isEqualTo(1);
	}

	@Test
	void recordsDisabledOperationsUnseen() {
		this.operations.observe("evict", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(5)));
		assertThat(PrometheusScrape.parse(this.registry.scrape()).families())
			.doesNotContain("karpenter_evict_duration_seconds")
			.contains("karpenter_evict_in_flight");
		assertThat(this.observability.failures().count()).isZero();
	}

	@Test
	void countsCallsInFlightUntilTheyEndWhateverTheirOutcome() {
		Map<String, String> gpu = Map.of("cluster", "dev", "provisioner", "gpu");
		OperationHandle handle = this.operations.bind("bind", Tags.of("provisioner", "gpu"));
		handle.observe(() -> {
			assertThat(inFlight(gpu)).isEqualTo(1);
			this.operations.observe("bind", Tags.of("provisioner", "gpu"),
					() -> assertThat(inFlight(gpu)).isEqualTo(2));
			assertThat(inFlight(gpu)).isEqualTo(1);
		});
		assertThat(inFlight(gpu)).isZero();
		assertThatIllegalStateException().isThrownBy(() -> handle.observe((Runnable) () -> {
			assertThat(inFlight(gpu)).isEqualTo(1);
			throw new IllegalStateException("no node");
		}));
		assertThat(inFlight(gpu)).isZero();
		CompletableFuture<String> pending = new CompletableFuture<>();
		handle.observeAsync(() -> pending);
		assertThat(inFlight(gpu)).isEqualTo(1);
		pending.complete("bound");
		assertThat(inFlight(gpu)).isZero();
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("cluster", "dev", "error", "none", "provisioner", "gpu", "result", "success")))
			.isEqualTo(3);
		assertThat(this.observability.failures().count()).isZero();
	}

	@Test
	void keepsTheInFlightGaugeExactAndNeverNegativeWhileThreadsRecord() throws Exception {
		Map<String, String> gpu = Map.of("cluster", "dev", "provisioner", "gpu");
		OperationHandle handle = this.operations.bind("bind", Tags.of("provisioner", "gpu"));
		int threads = 4;
		int calls = 20_000;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		AtomicBoolean recording = new AtomicBoolean(true);
		List<Double> negative = new CopyOnWriteArrayList<>();
		io.micrometer.core.instrument.Gauge gauge = this.registry.find("karpenter.bind.in_flight").gauge();
		Thread reader = new Thread(() -> {
			while (recording.get()) {
				double value = gauge.value();
				if (value < 0) {
					negative.add(value);
				}
			}
		});
		reader.start();
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				done.add(executor.submit(() -> {
					for (int i = 0; i < calls; i++) {
						int call = i;
						try {
							handle.observe((Runnable) () -> {
								if (call % 10 == 0) {
									throw new IllegalArgumentException("refused");
								}
							});
						}
						catch (IllegalArgumentException ex) {
							// Every tenth call fails, as the work says.
						}
					}
				}));
			}
			for (Future<?> future : done) {
				future.get();
			}
		}
		finally {
			recording.set(false);
			reader.join();
			executor.shutdown();
		}
		assertThat(negative).isEmpty();
		assertThat(inFlight(gpu)).isZero();
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("cluster", "dev", "error", "none", "provisioner", "gpu", "result", "success")))
			.isEqualTo(threads * calls * 9 / 10);
	}

	@Test
	void refusesTheSeriesOfAnUndeclaredOperationOfADeclaredOnesMetricNameAndLeavesNothingInFlight() {
		ControllerObservability observability = ControllerObservability.builder(this.registry)
			.namespace("karpenter")
			.operationTags("provisioner")
			.operation("b", new OperationDefinition("x_a", null, null, null))
			.operationHistograms(this.prometheus)
			.build();
		ControllerOperations operations = observability.operations();
		Tags gpu = Tags.of("provisioner", "gpu");
		operations.observe("b", gpu, () -> this.clock.add(Duration.ofMillis(30)));
		// Undeclared, without a subsystem: the same metric name as the declared one's.
		operations.observe("x-a-b", gpu, () -> this.clock.add(Duration.ofMillis(30)));
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.value("karpenter_x_a_b_duration_seconds_count",
				Map.of("error", "none", "provisioner", "gpu", "result", "success")))
			.isEqualTo(1);
		assertThat(observability.failures().count()).isEqualTo(1);
		assertThat(this.registry.find("karpenter.x_a.b.in_flight").gauge().value()).isZero();
		assertThat(this.registry.find("karpenter.x_a_b.in_flight").gauge().value()).isZero();
	}

	private double inFlight(Map<String, String> labels) {
		return PrometheusScrape.parse(this.registry.scrape()).value("karpenter_bind_in_flight", labels);
	}

	@Test
	void allocatesNothingPerCall() {
		OperationHandle handle = this.operations.bind("bind", Tags.of("provisioner", "gpu"));
		Duration step = Duration.ofMillis(30);
		Runnable work = () -> this.clock.add(step);
		assertThat(Allocations.leastPerCall(() -> handle.observe(work), 100_000, 5))
			.as("bytes allocated per handle.observe")
			.isLessThan(0.01);
	}

	@Test
	void refusesAMicrometerMeterOfTheNameOfAnOperationHistogramAndKeepsScraping() {
		this.operations.observe("bind", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(30)));
		this.operations.observe("launch", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(30)));
		Timer.builder("karpenter.bind.duration").register(this.registry).record(Duration.ofSeconds(1));
		DistributionSummary.builder("karpenter.launch.duration.seconds.max").register(this.registry).record(1);
		this.registry.counter("karpenter.other").increment();
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.samples("karpenter_bind_duration_seconds_count")).singleElement()
			.satisfies((sample) -> assertThat(sample.labels()).containsEntry("provisioner", "gpu"))
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(1));
		assertThat(scrape.value("karpenter_launch_duration_seconds_count",
				Map.of("cluster", "dev", "error", "none", "provisioner", "gpu", "result", "success")))
			.isEqualTo(1);
		assertThat(scrape.value("karpenter_other_total", Map.of("cluster", "dev"))).isEqualTo(1);
		assertThat(this.observability.failures().count()).isEqualTo(2);
		assertThat(scrape.value("karpenter_observability_errors_total", Map.of("cluster", "dev"))).isEqualTo(2);
	}

	@Test
	void keepsScrapingWhenAMicrometerMeterTookTheNameOfAnOperationHistogramFirst() {
		Timer.builder("karpenter.bind.duration").register(this.registry).record(Duration.ofSeconds(1));
		this.operations.observe("bind", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(30)));
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.value("karpenter_bind_duration_seconds_count", Map.of("cluster", "dev"))).isEqualTo(1);
		assertThat(scrape.value("karpenter_bind_in_flight", Map.of("cluster", "dev", "provisioner", "gpu"))).isZero();
		assertThat(this.observability.failures().count()).isEqualTo(1);
	}

	@Test
	void refusesACounterOfTheNameOfAnOperationHistogramAndKeepsScraping() {
		this.operations.observe("bind", Tags.of("provisioner", "gpu"), () -> this.clock.add(Duration.ofMillis(30)));
		this.registry.counter("karpenter.bind.duration.seconds").increment();
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.samples("karpenter_bind_duration_seconds_count")).singleElement()
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(1));
		assertThat(scrape.samples("karpenter_bind_duration_seconds_total")).isEmpty();
		assertThat(this.observability.failures().count()).isEqualTo(1);
	}

	@Test
	void keepsScrapingWhenAMeterRegisteredBeforeTheBuilderBuiltHasTheNameOfAnOperationHistogram() {
		PrometheusRegistry prometheus = new PrometheusRegistry();
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, prometheus,
				this.clock);
		Timer.builder("widgets.pre.duration").register(registry).record(Duration.ofMillis(1));
		ControllerObservability observability = ControllerObservability.builder(registry)
			.namespace("widgets")
			.operationHistograms(prometheus)
			.build();
		int[] runs = new int[1];
		observability.operations().observe("pre", Tags.empty(), () -> runs[0]++);
		observability.operations().observe("pre", Tags.empty(), () -> runs[0]++);
		assertThat(runs[0]).isEqualTo(2);
		PrometheusScrape scrape = PrometheusScrape.parse(registry.scrape());
		assertThat(scrape.value("widgets_pre_duration_seconds_count", Map.of())).as("the Micrometer timer's")
			.isEqualTo(1);
		assertThat(observability.failures().count()).isEqualTo(2);
	}

	private static Map<String, String> with(Map<String, String> labels, String key, String value) {
		Map<String, String> more = new HashMap<>(labels);
		more.put(key, value);
		return more;
	}

	private static List<String> names(List<ExposedFamily> families) {
		return families.stream().map(ExposedFamily::name).toList();
	}

	private static org.assertj.core.data.Offset<Double> within() {
		return org.assertj.core.data.Offset.offset(1e-9);
	}

}
