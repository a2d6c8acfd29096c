package dev.controllerobservability.internal.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.test.ProtobufHistograms;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scrape {@link ScrapeWriter} renders against the standard writers of
 * prometheus-metrics-exposition-formats on the class path, given the snapshots of the
 * same collectors: byte for byte in the text formats, message for message in protobuf.
 */
class ScrapeWriterTests {

	private static final ExpositionFormats STANDARD = ExpositionFormats.init();

	/** Characters a label value or help text may hold that need escaping or UTF-8. */
	private static final String[] PIECES = { "a", "Z", "0", " ", "\"", "\\", "\n", "{", "}", ",", "=", "é", "€",
			"\uD83D\uDE00", "\uD800", "\uDC00x", "le", "#" };

	@Test
	void rendersRandomHistogramsAsTheStandardWritersWriteTheirSnapshots() throws Exception {
		for (int seed = 0; seed < 150; seed++) {
			Random random = new Random(seed);
			PrometheusRegistry registry = new PrometheusRegistry();
			// A scrape lists families by name: register them so, to compare whole
			// scrapes.
			int families = 1 + random.nextInt(3);
			for (int f = 0; f < families; f++) {
				randomHistogram(random, "family_" + f + "_seconds").register(registry);
			}
			for (ScrapeFormat format : ScrapeFormat.values()) {
				byte[] rendered = render(registry, format, null);
				byte[] standard = standard(registry, format, null);
				if (format == ScrapeFormat.PROMETHEUS_PROTOBUF) {
					assertThat(ProtobufHistograms.families(rendered)).as("seed %d", seed)
						.isEqualTo(ProtobufHistograms.families(standard));
				}
				else {
					assertThat(new String(rendered, StandardCharsets.UTF_8)).as("seed %d %s", seed, format)
						.isEqualTo(new String(standard, StandardCharsets.UTF_8));
					assertThat(rendered).isEqualTo(standard);
				}
			}
		}
	}

	@Test
	void rendersInfiniteSumsZeroAndNegativeValuesAndWidenedNativeBuckets() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram all = NativeHistogram
			.builder("all_values", "Any \"value\"\\ at all.\nSecond line.", List.of(-1.0, 0.0, 0.25, 1e300))
			.range(NativeHistogram.Range.ALL_VALUES)
			.labelNames("kind")
			.build();
		all.register(registry);
		// Past the largest double the sum is infinite, then stays so.
		NativeHistogram.DataPoint both = all.labelValues("both");
		both.observe(Double.MAX_VALUE);
		both.observe(Double.MAX_VALUE);
		both.observe(-Double.MAX_VALUE);
		NativeHistogram.DataPoint infinite = all.labelValues("inf");
		infinite.observe(Double.MAX_VALUE);
		infinite.observe(Double.MAX_VALUE);
		NativeHistogram.DataPoint wide = all.labelValues("wide");
		for (int exponent = -300; exponent <= 300; exponent += 3) {
			wide.observe(Math.pow(10, exponent));
			wide.observe(-Math.pow(10, exponent) * 3);
		}
		wide.observe(0.0);
		wide.observe(-0.0);
		wide.observe(Double.MIN_VALUE);
		all.labelValues("empty");
		NativeHistogram none = NativeHistogram.builder("no_series_seconds", "No series.", List.of(1.0)).build();
		none.register(registry);
		for (ScrapeFormat format : ScrapeFormat.values()) {
			assertSame(registry, format, null);
		}
		String text = new String(render(registry, ScrapeFormat.OPENMETRICS_TEXT, null), StandardCharsets.UTF_8);
		assertThat(text).contains("all_values_sum{kind=\"inf\"} +Inf", "all_values_count{kind=\"both\"} 3")
			.doesNotContain("no_series_seconds");
		assertThat(text.indexOf("# EOF")).isEqualTo(text.length() - "# EOF\n".length());
	}

	@Test
	void leavesHistogramsWithNamesTheWritersEscapeToThem() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram dotted = NativeHistogram.builder("dotted.duration.seconds", "Dotted.", List.of(1.0))
			.labelNames("some.label")
			.build();
		dotted.register(registry);
		dotted.labelValues("x").observe(0.5);
		assertThat(HistogramRenderer.renders(dotted)).isFalse();
		for (ScrapeFormat format : ScrapeFormat.values()) {
			assertSame(registry, format, null);
		}
	}

	@Test
	void includesFamiliesByTheNamesTheRegistryFiltersBy() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram histogram = NativeHistogram
			.builder("bind_duration_seconds", "Bind.", MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS)
			.labelNames("result")
			.build();
		histogram.register(registry);
		histogram.labelValues("success").observe(0.3);
		Counter requests = Counter.builder().name("requests").help("Requests.").register(registry);
		requests.inc();
		Gauge.builder().name("queue_depth").help("Depth.").register(registry).set(3);
		List<Set<String>> filters = List.of(Set.of(), Set.of("bind_duration_seconds"),
				Set.of("bind_duration_seconds_bucket", "bind_duration_seconds_count"), Set.of("requests"),
				Set.of("requests_total"), Set.of("queue_depth", "bind_duration_seconds"),
				Set.of("queue_depth", "requests", "requests_total", "bind_duration_seconds"));
		for (Set<String> names : filters) {
			for (ScrapeFormat format : ScrapeFormat.values()) {
				assertSame(registry, format, names::contains);
			}
		}
		assertSame(registry, ScrapeFormat.PROMETHEUS_TEXT, null);
		String all = new String(render(registry, ScrapeFormat.OPENMETRICS_TEXT, null), StandardCharsets.UTF_8);
		assertThat(all).contains("bind_duration_seconds_bucket{result=\"success\",le=\"0.35\"} 1", "requests_total 1.0",
				"queue_depth 3.0");
		assertThat(all.split("# EOF", -1)).hasSize(2);
		assertThat(all).endsWith("# EOF\n");
	}

	@Test
	void forgetsAHistogramUnregisteredFromTheRegistry() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram histogram = NativeHistogram.builder("gone_seconds", "Gone.", List.of(1.0)).build();
		histogram.register(registry);
		histogram.labelValues().observe(1);
		assertThat(new String(render(registry, ScrapeFormat.PROMETHEUS_TEXT, null), StandardCharsets.UTF_8))
			.contains("gone_seconds_count 1");
		histogram.unregister(registry);
		assertThat(render(registry, ScrapeFormat.PROMETHEUS_TEXT, null)).isEmpty();
		assertThat(RenderedHistograms.of(registry)).isEmpty();
	}

	@Test
	void showsSeriesCreatedAndRemovedBetweenScrapesInTheOrderOfTheirLabels() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram histogram = NativeHistogram.builder("come_and_go_seconds", "Series.", List.of(1.0))
			.labelNames("name")
			.build();
		histogram.register(registry);
		histogram.labelValues("b").observe(1);
		assertSame(registry, ScrapeFormat.PROMETHEUS_TEXT, null);
		histogram.labelValues("a").observe(1);
		histogram.labelValues("c").observe(1);
		String text = new String(render(registry, ScrapeFormat.PROMETHEUS_TEXT, null), StandardCharsets.UTF_8);
		assertThat(text.indexOf("come_and_go_seconds_count{name=\"a\"}"))
			.isLessThan(text.indexOf("come_and_go_seconds_count{name=\"b\"}"))
			.isLessThan(text.indexOf("come_and_go_seconds_count{name=\"c\"}"));
		assertThat(histogram.remove("b")).isTrue();
		assertThat(new String(render(registry, ScrapeFormat.PROMETHEUS_TEXT, null), StandardCharsets.UTF_8))
			.doesNotContain("name=\"b\"")
			.contains("come_and_go_seconds_count{name=\"c\"} 1");
		assertSame(registry, ScrapeFormat.PROMETHEUS_PROTOBUF, null);
	}

	/**
	 * The catalog's collectors run when the registry is collected, and may record into a
	 * rendered histogram: they run before it is read, so the scrape shows what they
	 * recorded.
	 */
	@Test
	void readsTheHistogramsAfterTheRegistrysCollectorsRan() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram histogram = NativeHistogram.builder("collected_seconds", "Collected.", List.of(1.0)).build();
		histogram.register(registry);
		NativeHistogram.DataPoint point = histogram.labelValues();
		registry.register(new Collector() {

			@Override
			public MetricSnapshot collect() {
				point.observe(0.5);
				return null;
			}

			@Override
			public MetricSnapshot collect(Predicate<String> includedNames) {
				return collect();
			}

		});
		assertThat(new String(render(registry, ScrapeFormat.PROMETHEUS_TEXT, null), StandardCharsets.UTF_8))
			.contains("collected_seconds_count 1\n");
		assertThat(new String(render(registry, ScrapeFormat.OPENMETRICS_TEXT, (name) -> true), StandardCharsets.UTF_8))
			.contains("collected_seconds_count 2\n");
	}

	/**
	 * The rendering allocates a small part of what the standard writer's snapshots and
	 * strings take for the same scrape; it fails if a snapshot creeps back in.
	 */
	@Test
	void rendersWithoutAllocatingPerBucket() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram histogram = NativeHistogram
			.builder("reconcile_duration_seconds", "Reconcile.", MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS)
			.labelNames("provisioner", "result")
			.build();
		histogram.register(registry);
		for (int i = 0; i < 2_000; i++) {
			histogram.labelValues("provisioner-" + i, "success").observe(i / 1000.0);
		}
		for (ScrapeFormat format : ScrapeFormat.values()) {
			// Once first, so that class loading counts in neither.
			allocated(() -> ScrapeWriter.of(registry).write(format, null, OutputStream.nullOutputStream()));
			allocated(() -> writer(format).write(OutputStream.nullOutputStream(), registry.scrape()));
			long rendered = allocated(
					() -> ScrapeWriter.of(registry).write(format, null, OutputStream.nullOutputStream()));
			long standard = allocated(() -> writer(format).write(OutputStream.nullOutputStream(), registry.scrape()));
			assertThat(rendered).as(format.name()).isLessThan(standard / 10);
		}
	}

	/**
	 * A rendered scrape taken while threads record is whole: the count is the sum of the
	 * buckets, and never goes down.
	 */
	@Test
	void everyRenderedScrapeUnderConcurrentObservationsIsWholeAndNeverGoesDown() throws Exception {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram histogram = NativeHistogram
			.builder("busy_duration_seconds", "Busy.", MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS)
			.build();
		histogram.register(registry);
		NativeHistogram.DataPoint point = histogram.labelValues();
		int threads = 3;
		int perThread = 200_000;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		List<Future<?>> observers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int seed = t;
			observers.add(executor.submit(() -> {
				Random random = new Random(seed);
				for (int i = 0; i < perThread; i++) {
					point.observe(random.nextDouble() * 2);
				}
			}));
		}
		long previous = 0;
		int scrapes = 0;
		while (!observers.stream().allMatch(Future::isDone) || scrapes == 0) {
			String text = new String(render(registry, ScrapeFormat.PROMETHEUS_TEXT, null), StandardCharsets.UTF_8);
			long count = value(text, "busy_duration_seconds_count ");
			assertThat(value(text, "busy_duration_seconds_bucket{le=\"+Inf\"} ")).isEqualTo(count);
			assertThat(count).isGreaterThanOrEqualTo(previous);
			previous = count;
			scrapes++;
		}
		for (Future<?> observer : observers) {
			observer.get();
		}
		executor.shutdown();
		assertThat(executor.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
		String last = new String(render(registry, ScrapeFormat.PROMETHEUS_TEXT, null), StandardCharsets.UTF_8);
		assertThat(value(last, "busy_duration_seconds_count ")).isEqualTo((long) threads * perThread);
	}

	private static long value(String text, String prefix) {
		int start = text.indexOf(prefix) + prefix.length();
		return Long.parseLong(text.substring(start, text.indexOf('\n', start)));
	}

	/** Rendered and standard scrapes hold the same families, each whole. */
	private static void assertSame(PrometheusRegistry registry, ScrapeFormat format, Predicate<String> names)
			throws Exception {
		byte[] rendered = render(registry, format, names);
		byte[] standard = standard(registry, format, names);
		if (format == ScrapeFormat.PROMETHEUS_PROTOBUF) {
			assertThat(byName(ProtobufHistograms.families(rendered)))
				.isEqualTo(byName(ProtobufHistograms.families(standard)));
		}
		else {
			assertThat(textFamilies(rendered)).as(format.name()).isEqualTo(textFamilies(standard));
		}
	}

	private static Map<String, Object> byName(List<Object> families) throws Exception {
		Map<String, Object> byName = new LinkedHashMap<>();
		List<Object> sorted = new ArrayList<>(families);
		sorted.sort(Comparator.comparing(ScrapeWriterTests::name));
		for (Object family : sorted) {
			assertThat(byName.put(ProtobufHistograms.name(family), family)).as("one family of a name").isNull();
		}
		return byName;
	}

	private static String name(Object family) {
		try {
			return ProtobufHistograms.name(family);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The families of a text scrape, each the block from its first comment line. */
	private static Set<String> textFamilies(byte[] scrape) {
		String text = new String(scrape, StandardCharsets.UTF_8);
		Set<String> families = new TreeSet<>();
		StringBuilder family = new StringBuilder();
		boolean inComments = false;
		for (String line : text.split("\n", -1)) {
			boolean comment = line.startsWith("# ");
			if (comment && !inComments && family.length() > 0) {
				assertThat(families.add(family.toString())).as("one family of a name").isTrue();
				family.setLength(0);
			}
			inComments = comment;
			family.append(line).append('\n');
		}
		families.add(family.toString());
		return families;
	}

	private static byte[] render(PrometheusRegistry registry, ScrapeFormat format, Predicate<String> names)
			throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ScrapeWriter.of(registry).write(format, names, out);
		return out.toByteArray();
	}

	private static byte[] standard(PrometheusRegistry registry, ScrapeFormat format, Predicate<String> names)
			throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		writer(format).write(out, (names != null) ? registry.scrape(names) : registry.scrape());
		return out.toByteArray();
	}

	private static ExpositionFormatWriter writer(ScrapeFormat format) {
		return switch (format) {
			case PROMETHEUS_TEXT -> STANDARD.getPrometheusTextFormatWriter();
			case OPENMETRICS_TEXT -> STANDARD.getOpenMetricsTextFormatWriter();
			case PROMETHEUS_PROTOBUF -> STANDARD.getPrometheusProtobufWriter();
		};
	}

	private static long allocated(Scrape scrape) throws IOException {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long before = threads.getCurrentThreadAllocatedBytes();
		scrape.run();
		return threads.getCurrentThreadAllocatedBytes() - before;
	}

	private static NativeHistogram randomHistogram(Random random, String name) {
		boolean allValues = random.nextBoolean();
		int bucketCount = random.nextInt(12);
		TreeSet<Double> bounds = new TreeSet<>();
		while (bounds.size() < bucketCount) {
			double bound = switch (random.nextInt(4)) {
				case 0 -> random.nextInt(10) / 4.0;
				case 1 -> Math.pow(10, random.nextInt(20) - 10);
				case 2 -> random.nextGaussian() * 100;
				default -> allValues ? -random.nextDouble() * 1e6 : random.nextDouble();
			};
			bounds.add(bound + 0.0);
		}
		List<String> labelNames = new ArrayList<>();
		int labels = random.nextInt(4);
		for (int i = 0; i < labels; i++) {
			labelNames.add("label_" + (char) ('a' + random.nextInt(26)) + i);
		}
		Map<String, String> constant = new LinkedHashMap<>();
		if (random.nextBoolean()) {
			constant.put("cluster", randomText(random));
		}
		NativeHistogram histogram = NativeHistogram.builder(name, randomText(random), new ArrayList<>(bounds))
			.range(allValues ? NativeHistogram.Range.ALL_VALUES : NativeHistogram.Range.DURATIONS)
			.labelNames(labelNames.toArray(String[]::new))
			.constLabels(NativeHistogram.constantLabels(constant, labelNames.toArray(String[]::new)))
			.build();
		int series = random.nextInt(6);
		for (int s = 0; s < series; s++) {
			String[] values = new String[labels];
			Arrays.setAll(values, (i) -> randomText(random));
			NativeHistogram.DataPoint point = histogram.labelValues(values);
			int observations = random.nextInt(300);
			for (int o = 0; o < observations; o++) {
				point.observe(randomValue(random, allValues));
			}
		}
		return histogram;
	}

	private static double randomValue(Random random, boolean allValues) {
		double magnitude = switch (random.nextInt(8)) {
			case 0 -> 0.0;
			case 1 -> Math.pow(2, random.nextInt(2000) - 1000);
			case 2 -> random.nextDouble();
			case 3 -> random.nextInt(100) / 4.0;
			case 4 -> Double.MAX_VALUE;
			case 5 -> (random.nextInt(20) == 0) ? Double.NaN : Double.POSITIVE_INFINITY;
			default -> random.nextGaussian() * 1000;
		};
		return (random.nextInt(4) == 0) ? -magnitude : magnitude;
	}

	private static String randomText(Random random) {
		StringBuilder text = new StringBuilder();
		int pieces = random.nextInt(6);
		for (int i = 0; i < pieces; i++) {
			text.append(PIECES[random.nextInt(PIECES.length)]);
		}
		return text.toString();
	}

	@FunctionalInterface
	private interface Scrape {

		void run() throws IOException;

	}

}
