package dev.controllerobservability.internal.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBucket;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.MetricHistogram;
import dev.controllerobservability.internal.test.ProtobufHistograms;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A histogram of {@link NativeHistogram.Range#ALL_VALUES}, and declared histograms on
 * every path, against a model of what a histogram is: random buckets, random values with
 * every bound and its neighbours among them, read from the snapshot and from every
 * exposition format.
 */
class NativeHistogramPropertyTests {

	private static final String NAME = "exact_ratio";

	/**
	 * 2^(j/8) / 2 for j in 0..7 as the Prometheus server holds them
	 * ({@code nativeHistogramBounds[3]}) to read the bounds of schema-3 buckets: bucket
	 * {@code i} is (2^((i-1)/8), 2^(i/8)] with these bounds.
	 */
	private static final double[] SERVER_FRACTIONS = { 0.5, 0.5452538663326288, 0.5946035575013605, 0.6484197773255048,
			0.7071067811865475, 0.7711054127039704, 0.8408964152537144, 0.9170040432046711 };

	@Property(tries = 300)
	void countsEveryValueInItsTrueClassicBucketInTheSnapshotAndEveryFormat(
			@ForAll @Size(max = 12) List<@From("bound") Double> bounds,
			@ForAll @Size(max = 30) List<@From("value") Double> randomValues, @ForAll Random random) throws Exception {
		List<Double> buckets = List.copyOf(new TreeSet<>(bounds.stream().map((bound) -> bound + 0.0).toList()));
		List<Double> values = valuesAround(buckets, randomValues);
		Collections.shuffle(values, random);
		NativeHistogram histogram = NativeHistogram.builder(NAME, "Exact.", buckets)
			.range(NativeHistogram.Range.ALL_VALUES)
			.build();
		PrometheusRegistry registry = new PrometheusRegistry();
		registry.register(histogram);
		NativeHistogram.DataPoint point = histogram.labelValues();
		for (double value : values) {
			assertThat(point.observe(value)).as("counted %s", value).isEqualTo(Double.isFinite(value));
		}
		Map<Double, Long> expected = cumulativeCounts(buckets, values);
		double expectedSum = 0.0;
		for (double value : values) {
			expectedSum += Double.isFinite(value) ? value : 0.0;
		}
		long expectedCount = values.stream().filter(Double::isFinite).count();

		HistogramDataPointSnapshot snapshot = histogram.collect().getDataPoints().get(0);
		assertThat(snapshotCounts(snapshot)).as("snapshot buckets of %s", values).isEqualTo(expected);
		assertThat(snapshot.getCount()).isEqualTo(expectedCount);
		assertSameDouble(snapshot.getSum(), expectedSum, "snapshot sum");
		long nativeCount = snapshot.getNativeZeroCount();
		for (NativeHistogramBucket bucket : snapshot.getNativeBucketsForPositiveValues()) {
			nativeCount += bucket.getCount();
		}
		for (NativeHistogramBucket bucket : snapshot.getNativeBucketsForNegativeValues()) {
			nativeCount += bucket.getCount();
		}
		assertThat(nativeCount).as("native count").isEqualTo(expectedCount);

		assertEveryFormat(registry.scrape(), values, expected, expectedCount, expectedSum);
	}

	/** The histogram {@code exact_ratio}, declared through the core builder. */
	private static MetricHistogram declaredRatio(MeterRegistry registry, List<Double> buckets) {
		return ControllerObservability.builder(registry)
			.namespace("exact")
			.metric(MetricDefinition.histogram("ratio")
				.help("Exact.")
				.buckets(buckets.stream().mapToDouble(Double::doubleValue).toArray())
				.build())
			.build()
			.metrics()
			.histogram("ratio");
	}

	/** The buckets, count and sum of the one histogram in every exposition format. */
	private static void assertEveryFormat(MetricSnapshots snapshots, List<Double> values, Map<Double, Long> expected,
			long expectedCount, double expectedSum) throws Exception {
		for (ExpositionFormatWriter writer : List.of(PrometheusTextFormatWriter.create(),
				OpenMetricsTextFormatWriter.create())) {
			String written = new String(write(writer, snapshots), StandardCharsets.UTF_8);
			Scrape text = textScrape(written);
			assertThat(text.buckets()).as("%s buckets of %s", writer.getContentType(), values).isEqualTo(expected);
			// prometheus-metrics-model takes a NaN sum (+Inf and -Inf observed) for no
			// sum, and OpenMetrics then shows neither _count nor _sum.
			boolean noCount = Double.isNaN(expectedSum) && writer instanceof OpenMetricsTextFormatWriter;
			assertThat(text.count()).as("count in%n%s", written).isEqualTo(noCount ? -1 : expectedCount);
			assertSameDouble(text.sum(), expectedSum, writer.getContentType() + " sum");
		}
		Scrape protobuf = protobufScrape(write(new PrometheusProtobufWriter(), snapshots));
		assertThat(protobuf.buckets()).as("protobuf buckets of %s", values).isEqualTo(expected);
		assertThat(protobuf.count()).isEqualTo(expectedCount);
		assertSameDouble(protobuf.sum(), expectedSum, "protobuf sum");
	}

	/**
	 * A declared histogram recorded through {@link ControllerMetrics} on a
	 * {@link PrometheusMeterRegistry}, the exact path: the same model, with negative
	 * values counted only when the first bucket lies below 0 and every other value
	 * refused.
	 */
	@Property(tries = 200)
	void countsEveryValueOfADeclaredHistogramInItsTrueBucketOnAPrometheusRegistry(
			@ForAll @Size(min = 1, max = 12) List<@From("bound") Double> bounds,
			@ForAll @Size(max = 30) List<@From("value") Double> randomValues, @ForAll Random random) throws Exception {
		List<Double> buckets = List.copyOf(new TreeSet<>(bounds.stream().map((bound) -> bound + 0.0).toList()));
		List<Double> values = valuesAround(buckets, randomValues);
		Collections.shuffle(values, random);
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		MetricHistogram histogram = declaredRatio(registry, buckets);
		boolean negative = buckets.get(0) < 0;
		List<Double> counted = values.stream()
			.filter((value) -> Double.isFinite(value) && (negative || value >= 0))
			.toList();
		values.forEach(histogram::observe);
		Map<Double, Long> expected = cumulativeCounts(buckets, counted);
		double expectedSum = 0.0;
		for (double value : counted) {
			expectedSum += value;
		}
		assertEveryFormat(registry.getPrometheusRegistry().scrape(NAME::equals), values, expected, counted.size(),
				expectedSum);
		assertThat(registry.get("exact.observability.errors").counter().count())
			.isEqualTo(values.size() - counted.size());
	}

	/**
	 * A declared histogram recorded through {@link ControllerMetrics} on any other
	 * registry, as a Micrometer distribution summary: kept only with boundaries that are
	 * whole numbers above 0, on which Micrometer's rounding up still finds each value's
	 * true bucket.
	 */
	@Property(tries = 200)
	void countsEveryValueOfADeclaredHistogramOfWholeNumberBucketsInItsTrueBucketOnAnyRegistry(
			@ForAll @Size(min = 1, max = 12) List<@From("wholeBound") Double> bounds,
			@ForAll @Size(max = 30) List<@From("value") Double> randomValues, @ForAll Random random) {
		List<Double> buckets = List.copyOf(new TreeSet<>(bounds));
		List<Double> values = valuesAround(buckets, randomValues);
		Collections.shuffle(values, random);
		SimpleMeterRegistry child = new SimpleMeterRegistry();
		MetricHistogram histogram = declaredRatio(new CompositeMeterRegistry(Clock.SYSTEM, List.of(child)), buckets);
		List<Double> counted = values.stream().filter((value) -> Double.isFinite(value) && value >= 0).toList();
		values.forEach(histogram::observe);
		Map<Double, Long> expected = cumulativeCounts(buckets, counted);
		expected.remove(Double.POSITIVE_INFINITY);
		DistributionSummary summary = child.get("exact.ratio").summary();
		Map<Double, Long> actual = new LinkedHashMap<>();
		for (CountAtBucket bucket : summary.takeSnapshot().histogramCounts()) {
			actual.put(bucket.bucket(), (long) bucket.count());
		}
		assertThat(actual).as("buckets of %s", values).isEqualTo(expected);
		assertThat(summary.count()).isEqualTo(counted.size());
	}

	/**
	 * Bucket {@code i} holds (2^((i-1)/8), 2^(i/8)] for positive values and mirrors it
	 * for negative ones, with the bounds the server reads; values of at most 2^-1022 in
	 * magnitude are in the zero bucket.
	 */
	@Property(tries = 3000)
	void putsEveryValueInTheNativeBucketTheSpecificationGivesIt(@ForAll("value") double value) {
		HistogramDataPointSnapshot snapshot = observeOne(value);
		if (!Double.isFinite(value)) {
			assertThat(snapshot.getCount()).isZero();
			return;
		}
		double magnitude = Math.abs(value);
		if (magnitude <= Double.MIN_NORMAL) {
			assertThat(snapshot.getNativeZeroCount()).isOne();
			return;
		}
		assertThat(snapshot.getNativeSchema()).isEqualTo(3);
		int index = onlyBucket(snapshot, value > 0);
		assertThat(upperBound(index - 1)).as("lower bound of bucket %s of %s", index, value).isLessThan(magnitude);
		assertThat(upperBound(index)).as("upper bound of bucket %s of %s", index, value)
			.isGreaterThanOrEqualTo(magnitude);
	}

	/** Buckets include their upper bound: a value on it is in the bucket below. */
	@Property(tries = 1000)
	void putsAValueOnANativeBoundInTheBucketBelowIt(@ForAll("index") int index, @ForAll boolean negative) {
		double sign = negative ? -1.0 : 1.0;
		double bound = upperBound(index);
		assertThat(onlyBucket(observeOne(sign * bound), !negative)).as("bucket of %s", sign * bound).isEqualTo(index);
		assertThat(onlyBucket(observeOne(sign * Math.nextUp(bound)), !negative)).isEqualTo(index + 1);
		assertThat(onlyBucket(observeOne(sign * Math.nextDown(bound)), !negative)).isEqualTo(index);
	}

	/**
	 * The server's bounds are 2^(j/8) / 2 to within two bits, computed here apart from
	 * any table, to 60 digits.
	 */
	@Example
	void readsTheBoundsOfTheSpecificationAsThePrometheusServerDoes() {
		MathContext digits = new MathContext(60);
		for (int j = 0; j < SERVER_FRACTIONS.length; j++) {
			BigDecimal target = BigDecimal.valueOf(1L << j);
			BigDecimal root = BigDecimal.valueOf(Math.pow(2, j / 8.0));
			// Newton's method for root^8 = 2^j.
			for (int i = 0; i < 20; i++) {
				BigDecimal power7 = root.pow(7, digits);
				BigDecimal step = root.multiply(power7, digits)
					.subtract(target)
					.divide(power7.multiply(BigDecimal.valueOf(8)), digits);
				root = root.subtract(step, digits);
			}
			BigDecimal half = root.divide(BigDecimal.valueOf(2), digits);
			BigDecimal error = new BigDecimal(SERVER_FRACTIONS[j]).subtract(half, digits).abs();
			assertThat(error).as("error of 2^(%s/8) / 2", j)
				.isLessThanOrEqualTo(new BigDecimal(Math.ulp(SERVER_FRACTIONS[j])).multiply(BigDecimal.valueOf(2)));
		}
	}

	@Provide
	Arbitrary<Double> bound() {
		return Arbitraries.oneOf(Arbitraries.integers().between(-100, 100).map((i) -> i / 20.0),
				Arbitraries.integers().between(-1000, 1000).map(Integer::doubleValue),
				Arbitraries.integers().between(-1074, -1000).map((e) -> Math.scalb(1.0, e)),
				Arbitraries.integers().between(-1074, -1000).map((e) -> -Math.scalb(1.0, e)),
				Arbitraries.integers().between(1000, 1023).map((e) -> Math.scalb(1.5, e)),
				Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite),
				Arbitraries.of(0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL,
						Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE, -Double.MAX_VALUE, 0.05, 0.1, 0.3, 0.8,
						0.95, 1.0));
	}

	@Provide
	Arbitrary<Double> wholeBound() {
		return Arbitraries.oneOf(Arbitraries.integers().between(1, 100).map(Integer::doubleValue),
				Arbitraries.longs().between(1, Long.MAX_VALUE / 2).map((bound) -> (double) bound),
				Arbitraries.of(1.0, 2.0, 0x1p62, Math.nextDown(0x1p63)));
	}

	@Provide
	Arbitrary<Double> value() {
		return Arbitraries.frequencyOf(Tuple.of(20, bound()),
				Tuple.of(1, Arbitraries.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN)));
	}

	@Provide
	Arbitrary<Integer> index() {
		return Arbitraries.integers().between(-8175, 8191).edgeCases((edges) -> edges.includeOnly(-8175, 0, 8191));
	}

	/** Equal as doubles are, NaN to NaN included. */
	private static void assertSameDouble(double actual, double expected, String what) {
		assertThat(Double.valueOf(actual)).as(what).isEqualTo(Double.valueOf(expected));
	}

	/** The values, then every bucket bound, its neighbours, and the edges of doubles. */
	private static List<Double> valuesAround(List<Double> buckets, List<Double> randomValues) {
		List<Double> values = new ArrayList<>(randomValues);
		for (double bound : buckets) {
			values.add(bound);
			values.add(Math.nextUp(bound));
			values.add(Math.nextDown(bound));
		}
		if (!buckets.isEmpty()) {
			double last = buckets.get(buckets.size() - 1);
			values.add((last > 0) ? Math.min(last * 2, Double.MAX_VALUE) : last / 2 + 1);
			values.add(buckets.get(0) - Math.abs(buckets.get(0)) - 1);
		}
		values.addAll(List.of(0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, 1e300, -1e300));
		return values;
	}

	/** The model: how many finite values are not above each bound. */
	private static Map<Double, Long> cumulativeCounts(List<Double> buckets, List<Double> values) {
		Map<Double, Long> counts = new LinkedHashMap<>();
		List<Double> bounds = new ArrayList<>(buckets);
		bounds.add(Double.POSITIVE_INFINITY);
		for (double bound : bounds) {
			counts.put(bound, values.stream().filter((value) -> Double.isFinite(value) && value <= bound).count());
		}
		return counts;
	}

	private static Map<Double, Long> snapshotCounts(HistogramDataPointSnapshot snapshot) {
		Map<Double, Long> counts = new LinkedHashMap<>();
		long cumulative = 0;
		for (var bucket : snapshot.getClassicBuckets()) {
			cumulative += bucket.getCount();
			counts.put(bucket.getUpperBound(), cumulative);
		}
		return counts;
	}

	private static HistogramDataPointSnapshot observeOne(double value) {
		NativeHistogram histogram = NativeHistogram.builder(NAME, "Exact.", List.of())
			.range(NativeHistogram.Range.ALL_VALUES)
			.build();
		histogram.labelValues().observe(value);
		return histogram.collect().getDataPoints().get(0);
	}

	/** The index of the one native bucket of a sign, which holds the one observation. */
	private static int onlyBucket(HistogramDataPointSnapshot snapshot, boolean positive) {
		List<NativeHistogramBucket> buckets = new ArrayList<>();
		(positive ? snapshot.getNativeBucketsForPositiveValues() : snapshot.getNativeBucketsForNegativeValues())
			.forEach(buckets::add);
		(positive ? snapshot.getNativeBucketsForNegativeValues() : snapshot.getNativeBucketsForPositiveValues())
			.forEach((bucket) -> assertThat(bucket.getCount()).as("bucket of the other sign").isZero());
		assertThat(buckets).hasSize(1);
		assertThat(buckets.get(0).getCount()).isOne();
		assertThat(snapshot.getNativeZeroCount()).isZero();
		return buckets.get(0).getBucketIndex();
	}

	/** 2^(i/8) as the server reads it: +Inf for bucket 8192, 2^1024 as a double. */
	private static double upperBound(int index) {
		return Math.scalb(SERVER_FRACTIONS[Math.floorMod(index, 8)], Math.floorDiv(index, 8) + 1);
	}

	private static byte[] write(ExpositionFormatWriter writer, MetricSnapshots snapshots) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		writer.write(out, snapshots);
		return out.toByteArray();
	}

	private static final Pattern SAMPLE = Pattern
		.compile("^" + NAME + "_(bucket|count|sum)(?:\\{le=\"([^\"]+)\"\\})? (\\S+)(?: .*)?$");

	private static Scrape textScrape(String written) {
		Map<Double, Long> buckets = new LinkedHashMap<>();
		long count = -1;
		double sum = Double.NaN;
		for (String line : written.split("\n")) {
			Matcher sample = SAMPLE.matcher(line);
			if (!sample.matches()) {
				continue;
			}
			double value = number(sample.group(3));
			switch (sample.group(1)) {
				case "bucket" -> buckets.put(number(sample.group(2)), (long) value);
				case "count" -> count = (long) value;
				default -> sum = value;
			}
		}
		return new Scrape(buckets, count, sum);
	}

	private static double number(String text) {
		return switch (text) {
			case "+Inf" -> Double.POSITIVE_INFINITY;
			case "-Inf" -> Double.NEGATIVE_INFINITY;
			case "NaN" -> Double.NaN;
			default -> Double.parseDouble(text);
		};
	}

	private static Scrape protobufScrape(byte[] bytes) throws Exception {
		List<ProtobufHistograms.Series> series = ProtobufHistograms.read(bytes);
		assertThat(series).extracting(ProtobufHistograms.Series::family).containsExactly(NAME);
		return new Scrape(series.get(0).buckets(), series.get(0).count(), series.get(0).sum());
	}

	private record Scrape(Map<Double, Long> buckets, long count, double sum) {
	}

}
