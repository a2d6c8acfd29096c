package dev.controllerobservability.exposition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.core.metrics.StateSet;
import io.prometheus.metrics.core.metrics.Summary;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A registry's snapshots read into the exposition its text format scrape shows, compared
 * with that scrape read back, family by family and sample by sample.
 */
class SnapshotReaderTests {

	private static final String ESCAPES = "quote \" backslash \\ newline \n end";

	private static final String HOSTILE = "nul \0 lone \uD800 reversed \uDC00\uD800 pair \uD83D\uDE00";

	private static final long CREATED = 1_700_000_000_042L;

	@Test
	void readsMicrometerMetersAsTheirTextScrapeShowsThem() {
		PrometheusMeterRegistry registry = registry(new Properties());
		registerMeters(registry);
		Exposition read = assertReadAsTextShows(registry, new Properties());
		assertThat(read.family("orders_seconds")).map(ExposedFamily::buckets)
			.hasValueSatisfying((buckets) -> assertThat(buckets).containsExactly(0.1, 0.5));
		assertThat(read.family("orders_seconds_max")).map(ExposedFamily::type).hasValue("gauge");
		assertThat(read.family("latency_seconds")).map(ExposedFamily::type).hasValue("summary");
		assertThat(read.samples()).filteredOn((sample) -> sample.name().equals("latency_seconds"))
			.extracting((sample) -> sample.labels().get("quantile"))
			.containsExactly("0.5", "0.99");
		assertThat(read.family("jobs_total")).map(ExposedFamily::type).hasValue("counter");
		assertThat(read.family("escaped_total")).map(ExposedFamily::help).hasValue("Help \\ with \n escapes.");
		assertThat(read.family("escaped_total")).map(ExposedFamily::series)
			.hasValueSatisfying((series) -> assertThat(series).containsExactly(Map.of("value", ESCAPES)));
		assertThat(read.samples()).filteredOn((sample) -> sample.name().equals("not_a_number"))
			.singleElement()
			.satisfies((sample) -> assertThat(sample.value()).isNaN());
	}

	@Test
	void readsPrometheusClientMetricsAsTheirTextScrapeShowsThem() {
		PrometheusMeterRegistry registry = registry(new Properties());
		registerClientMetrics(registry.getPrometheusRegistry());
		Exposition read = assertReadAsTextShows(registry, new Properties());
		assertThat(read.families()).extracting(ExposedFamily::name, ExposedFamily::type)
			.contains(tuple("build_info", "gauge"), tuple("phase", "gauge"), tuple("native_only_seconds", "histogram"),
					tuple("queue_items", "histogram"), tuple("queue_items_gcount", "gauge"),
					tuple("queue_items_gsum", "gauge"), tuple("mystery", "untyped"));
		assertThat(read.family("native_only_seconds")).map(ExposedFamily::buckets)
			.hasValueSatisfying((buckets) -> assertThat(buckets).isEmpty());
		assertThat(read.samples()).filteredOn((sample) -> sample.name().equals("native_only_seconds_bucket"))
			.singleElement()
			.satisfies((sample) -> assertThat(sample.labels()).containsEntry("le", "+Inf"))
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(2));
		assertThat(read.family("requests_created")).isEmpty();
	}

	@Test
	void readsCreatedTimestampsOnlyWhenTheWriterWritesThem() {
		Properties properties = new Properties();
		properties.setProperty("io.prometheus.exporter.includeCreatedTimestamps", "true");
		PrometheusMeterRegistry registry = registry(properties);
		registerMeters(registry);
		registerClientMetrics(registry.getPrometheusRegistry());
		Exposition read = assertReadAsTextShows(registry, properties);
		assertThat(read.samples()).filteredOn((sample) -> sample.name().equals("requests_created"))
			.singleElement()
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(1_700_000_000.042));
	}

	@Test
	void readsCreatedAndScrapeTimestampsInMillisecondsWhenTheWriterWritesThem() {
		Properties properties = new Properties();
		properties.setProperty("io.prometheus.exporter.includeCreatedTimestamps", "true");
		properties.setProperty("io.prometheus.exporter.prometheusTimestampsInMs", "true");
		PrometheusMeterRegistry registry = registry(properties);
		registerClientMetrics(registry.getPrometheusRegistry());
		registerStamped(registry.getPrometheusRegistry());
		Exposition read = assertReadAsTextShows(registry, properties);
		assertThat(read.samples()).filteredOn((sample) -> sample.name().equals("stamped"))
			.singleElement()
			.satisfies((sample) -> assertThat(sample.timestamp()).isEqualTo(CREATED));
		assertThat(read.samples()).filteredOn((sample) -> sample.name().equals("requests_created"))
			.singleElement()
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(CREATED));
	}

	@Test
	void refusesAScrapeTimestampWrittenInSecondsAsTheTextReaderRefusesIt() {
		PrometheusMeterRegistry registry = registry(new Properties());
		registerStamped(registry.getPrometheusRegistry());
		String text = registry.scrape();
		assertThat(text).contains("stamped 1.0 1700000000.042");
		assertThatIllegalArgumentException().isThrownBy(() -> Exposition.parse(text));
		assertThatIllegalArgumentException().isThrownBy(() -> Exposition.of(registry.getPrometheusRegistry().scrape()))
			.withMessageContaining("stamped")
			.withMessageContaining("1700000000.042")
			.withMessageContaining("io.prometheus.exporter.prometheusTimestampsInMs=true");
	}

	@Test
	void readsNothingFromARegistryWithoutSeries() {
		PrometheusMeterRegistry registry = registry(new Properties());
		registry.getPrometheusRegistry()
			.register(() -> SummarySnapshot.builder()
				.name("empty")
				.dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder().build())
				.build());
		Exposition read = assertReadAsTextShows(registry, new Properties());
		assertThat(read.families()).isEmpty();
	}

	@Test
	void failsAsTheTextScrapeFailsWhenACollectorThrows() {
		PrometheusMeterRegistry registry = registry(new Properties());
		registry.counter("jobs").increment();
		registry.getPrometheusRegistry().register((Collector) () -> {
			throw new IllegalStateException("collector broke");
		});
		assertThatIllegalStateException().isThrownBy(registry::scrape).withMessage("collector broke");
		assertThatIllegalStateException().isThrownBy(() -> Exposition.of(registry.getPrometheusRegistry().scrape()))
			.withMessage("collector broke");
	}

	/**
	 * Reads one collection of the registry both ways: into the exposition, and written as
	 * its text scrape with the same exporter properties and read back.
	 */
	private static Exposition assertReadAsTextShows(PrometheusMeterRegistry registry, Properties properties) {
		// Collect once: gauges and timers read live values on every collection.
		MetricSnapshots snapshots = registry.getPrometheusRegistry().scrape();
		Exposition read = Exposition.of(snapshots, exporter(properties));
		Exposition parsed = Exposition
			.parse(new PrometheusMeterRegistry(config(properties), new CollectedRegistry(snapshots), Clock.SYSTEM)
				.scrape());
		assertThat(read.families()).extracting(ExposedFamily::name)
			.containsExactlyElementsOf(parsed.families().stream().map(ExposedFamily::name).toList());
		for (int i = 0; i < parsed.families().size(); i++) {
			assertThat(read.families().get(i)).isEqualTo(parsed.families().get(i));
		}
		assertThat(read.samples()).hasSameSizeAs(parsed.samples());
		for (int i = 0; i < parsed.samples().size(); i++) {
			assertThat(read.samples().get(i)).isEqualTo(parsed.samples().get(i));
		}
		assertThat(read).isEqualTo(parsed);
		return read;
	}

	private static PrometheusMeterRegistry registry(Properties properties) {
		return new PrometheusMeterRegistry(config(properties));
	}

	private static PrometheusConfig config(Properties properties) {
		return new PrometheusConfig() {

			@Override
			public String get(String key) {
				return null;
			}

			@Override
			public Properties prometheusProperties() {
				return properties;
			}

		};
	}

	private static ExporterProperties exporter(Properties properties) {
		return PrometheusPropertiesLoader.load(properties).getExporterProperties();
	}

	private static void registerMeters(PrometheusMeterRegistry registry) {
		registry.counter("jobs", "result", "ok").increment(3);
		Counter.builder("escaped")
			.description("Help \\ with \n escapes.")
			.tag("value", ESCAPES)
			.register(registry)
			.increment();
		Gauge.builder("queue.depth", () -> 7).description("Depth.").baseUnit("items").register(registry);
		Gauge.builder("not.a.number", () -> Double.NaN).register(registry);
		Gauge.builder("hostile", () -> 1).description(HOSTILE).tag("value", HOSTILE).register(registry);
		Gauge.builder("unbounded", () -> Double.POSITIVE_INFINITY).register(registry);
		Gauge.builder("release.info", () -> 1).tag("version", "1.2.3").register(registry);
		Timer orders = Timer.builder("orders")
			.serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(500))
			.tag("result", "ok")
			.register(registry);
		orders.record(Duration.ofMillis(50));
		orders.record(Duration.ofSeconds(2));
		Timer.builder("orders")
			.serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(500))
			.tag("result", "error")
			.register(registry);
		Timer latency = Timer.builder("latency").publishPercentiles(0.5, 0.99).register(registry);
		latency.record(Duration.ofMillis(20));
		Timer.builder("spread").publishPercentileHistogram().register(registry).record(Duration.ofMillis(3));
		DistributionSummary.builder("payload")
			.baseUnit("bytes")
			.serviceLevelObjectives(1024, 4096)
			.register(registry)
			.record(2000);
		DistributionSummary.builder("batch").publishPercentiles(0.9).register(registry).record(12);
		LongTaskTimer.builder("sync").register(registry).start();
		LongTaskTimer.builder("scan").serviceLevelObjectives(Duration.ofSeconds(1)).register(registry).start();
		AtomicInteger done = new AtomicInteger(5);
		FunctionCounter.builder("done", done, AtomicInteger::get).register(registry);
		FunctionTimer.builder("legacy", done, AtomicInteger::get, (value) -> 1.5, TimeUnit.SECONDS).register(registry);
		TimeGauge.builder("uptime", () -> 90, TimeUnit.SECONDS).register(registry);
	}

	/** A gauge whose sample carries a scrape timestamp, as a collector may set it. */
	private static void registerStamped(PrometheusRegistry registry) {
		registry.register(() -> GaugeSnapshot.builder()
			.name("stamped")
			.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).scrapeTimestampMillis(CREATED).build())
			.build());
	}

	private static void registerClientMetrics(PrometheusRegistry registry) {
		Histogram bind = Histogram.builder()
			.name("bind_seconds")
			.help("Bind duration.")
			.unit(Unit.SECONDS)
			.labelNames("result")
			.classicUpperBounds(0.1, 1, 10)
			.register(registry);
		bind.labelValues("ok").observe(0.05);
		bind.labelValues("ok").observe(3);
		bind.labelValues(ESCAPES).observe(Double.NaN);
		bind.labelValues(HOSTILE).observe(1);
		Summary.builder()
			.name("reconcile_seconds")
			.help("Reconcile duration.")
			.quantile(0.5, 0.01)
			.quantile(0.95, 0.005)
			.register(registry)
			.observe(0.2);
		Info.builder().name("build_info").help("Build.").labelNames("version").register(registry).setLabelValues("1");
		StateSet phase = StateSet.builder()
			.name("phase")
			.help("Phase.")
			.labelNames("node")
			.states("pending", "ready")
			.register(registry);
		phase.labelValues("n1").setTrue("ready");
		registry.register(new HandBuiltSnapshots());
	}

	/**
	 * Snapshots the client's metrics do not build: created timestamps, native-only and
	 * gauge histograms, unknowns.
	 */
	private static final class HandBuiltSnapshots implements MultiCollector {

		@Override
		public MetricSnapshots collect() {
			return MetricSnapshots.of(
					CounterSnapshot.builder()
						.name("requests")
						.help("Requests.")
						.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
							.value(4)
							.labels(Labels.of("path", "/a\\b"))
							.createdTimestampMillis(CREATED)
							.build())
						.build(),
					HistogramSnapshot.builder()
						.name("native_only_seconds")
						.unit(Unit.SECONDS)
						.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
							.nativeSchema(3)
							.nativeZeroCount(0)
							.nativeZeroThreshold(0)
							.nativeBucketsForPositiveValues(
									NativeHistogramBuckets.of(new int[] { 1 }, new long[] { 2 }))
							.sum(2.5)
							.createdTimestampMillis(CREATED)
							.build())
						.build(),
					HistogramSnapshot.builder()
						.name("queue_items")
						.help("Items queued.")
						.gaugeHistogram(true)
						.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
							.classicHistogramBuckets(ClassicHistogramBuckets
								.of(new double[] { 1, 5, Double.POSITIVE_INFINITY }, new long[] { 1, 2, 0 }))
							.sum(7)
							.labels(Labels.of("queue", "q1"))
							.build())
						.build(),
					UnknownSnapshot.builder()
						.name("mystery")
						.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder()
							.value(Double.NEGATIVE_INFINITY)
							.labels(Labels.of("why", ESCAPES))
							.build())
						.build());
		}

		@Override
		public List<String> getPrometheusNames() {
			return List.of("requests", "native_only_seconds", "queue_items", "mystery");
		}

	}

	/**
	 * A registry that returns one collection again, so that both readers see the same
	 * values.
	 */
	private static final class CollectedRegistry extends PrometheusRegistry {

		private final MetricSnapshots snapshots;

		CollectedRegistry(MetricSnapshots snapshots) {
			this.snapshots = snapshots;
		}

		@Override
		public MetricSnapshots scrape() {
			return this.snapshots;
		}

		@Override
		public MetricSnapshots scrape(PrometheusScrapeRequest request) {
			return this.snapshots;
		}

	}

}
