package dev.controllerobservability.internal.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBucket;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.NativeHistogramBucket;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * The starter's histogram against prometheus-metrics-core's, observation by observation,
 * and under concurrent observations and scrapes.
 */
class NativeHistogramTests {

	private static final List<Double> BUCKETS = MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS;

	@Test
	void putsEveryValueInTheNativeBucketPrometheusClientsDo() {
		Random random = new Random(42);
		for (int i = 0; i < 2_000; i++) {
			// Log-uniform from a nanosecond to a day.
			double value = Math.exp(Math.log(1e-9) + random.nextDouble() * (Math.log(86_400) - Math.log(1e-9)));
			Histogram reference = Histogram.builder()
				.name("reference_seconds")
				.help("Reference.")
				.nativeOnly()
				.nativeInitialSchema(NativeHistogram.SCHEMA)
				.build();
			reference.observe(value);
			NativeHistogramBucket expected = reference.collect()
				.getDataPoints()
				.get(0)
				.getNativeBucketsForPositiveValues()
				.iterator()
				.next();
			assertThat(NativeHistogram.nativeIndex(value)).as("native bucket of %s", value)
				.isEqualTo(expected.getBucketIndex());
		}
	}

	/**
	 * On a bucket bound, to the last bit: bucket {@code i} is (2^((i-1)/8), 2^(i/8)],
	 * with the bounds the Prometheus server computes (its {@code exponentialBounds}).
	 * prometheus-metrics-core 1.4 is one bit off on some of them.
	 */
	@Test
	void putsAValueOnABoundInTheBucketBelowItAsThePrometheusServerReadsIt() {
		double[] serverBounds = { 0.5, 0.5452538663326288, 0.5946035575013605, 0.6484197773255048, 0.7071067811865475,
				0.7711054127039704, 0.8408964152537144, 0.9170040432046711 };
		for (int exponent = -29; exponent <= 20; exponent++) {
			for (int j = 0; j < serverBounds.length; j++) {
				int index = (exponent - 1) * 8 + j;
				double bound = Math.scalb(serverBounds[j], exponent);
				assertThat(NativeHistogram.nativeIndex(bound)).as("bucket of %s", bound).isEqualTo(index);
				assertThat(NativeHistogram.nativeIndex(Math.nextUp(bound))).isEqualTo(index + 1);
				assertThat(NativeHistogram.nativeIndex(Math.nextDown(bound))).isEqualTo(index);
			}
		}
		assertThat(NativeHistogram.nativeIndex(1.0)).isZero();
		assertThat(NativeHistogram.nativeIndex(0.1)).isEqualTo(-26);
	}

	@Test
	void exposesWhatPrometheusClientsExposeForTheSameObservations() {
		Random random = new Random(7);
		NativeHistogram histogram = NativeHistogram.builder("bind_duration_seconds", "Bind.", BUCKETS).build();
		Histogram reference = Histogram.builder()
			.name("bind_duration_seconds")
			.help("Bind.")
			.classicUpperBounds(BUCKETS.stream().mapToDouble(Double::doubleValue).toArray())
			.nativeInitialSchema(NativeHistogram.SCHEMA)
			.nativeMaxNumberOfBuckets(NativeHistogram.MAX_BUCKETS)
			.build();
		for (int i = 0; i < 10_000; i++) {
			// Around 100 ms, as a reconcile might take: fewer than 100 native buckets.
			double value = 0.1 * Math.exp(random.nextGaussian() * 0.5);
			histogram.labelValues().observe(value);
			reference.observe(value);
		}
		for (double bound : BUCKETS) {
			// On a classic bound and either side of it.
			for (double value : new double[] { Math.nextDown(bound), bound, Math.nextUp(bound) }) {
				histogram.labelValues().observe(value);
				reference.observe(value);
			}
		}
		histogram.labelValues().observe(0.0);
		reference.observe(0.0);
		HistogramDataPointSnapshot actual = histogram.collect().getDataPoints().get(0);
		HistogramDataPointSnapshot expected = reference.collect().getDataPoints().get(0);
		assertThat(actual.getCount()).isEqualTo(10_001 + 3 * BUCKETS.size()).isEqualTo(expected.getCount());
		assertThat(actual.getSum()).isCloseTo(expected.getSum(), within(1e-6));
		assertThat(classic(actual)).isEqualTo(classic(expected));
		assertThat(actual.getNativeSchema()).isEqualTo(expected.getNativeSchema()).isEqualTo(3);
		assertThat(actual.getNativeZeroCount()).isEqualTo(expected.getNativeZeroCount()).isOne();
		assertThat(nativeBuckets(actual)).hasSizeBetween(20, NativeHistogram.MAX_BUCKETS)
			.isEqualTo(nativeBuckets(expected));
	}

	/**
	 * A scrape shows at most 100 native buckets: more are widened by lowering the schema,
	 * bucket {@code i} becoming bucket {@code ceil(i / 2)}, until they fit. (prometheus-
	 * metrics-core 1.4 widens at observation time and, rounding towards zero, shifts the
	 * observations below one second by a bucket.)
	 */
	@Test
	void widensWhatAScrapeShowsToAtMostOneHundredBuckets() {
		NativeHistogram histogram = NativeHistogram.builder("wide_duration_seconds", "Wide.", BUCKETS).build();
		// One value in each of 241 buckets of schema 3, from 2^-20 s to 2^10 s.
		for (int k = -160; k <= 80; k++) {
			histogram.labelValues().observe(Math.pow(2, k / 8.0) * 0.99);
		}
		HistogramDataPointSnapshot snapshot = histogram.collect().getDataPoints().get(0);
		// Schema 2 would still need 121 buckets; schema 1 needs 61: buckets -40 to 20.
		assertThat(snapshot.getNativeSchema()).isEqualTo(1);
		List<List<Long>> expected = new ArrayList<>();
		expected.add(List.of(-40L, 1L));
		for (long j = -39; j <= 20; j++) {
			expected.add(List.of(j, 4L));
		}
		assertThat(nativeBuckets(snapshot)).isEqualTo(expected);
		assertThat(snapshot.getCount()).isEqualTo(241);
		// Nothing is reset: the next scrape counts on from there.
		histogram.labelValues().observe(0.99);
		HistogramDataPointSnapshot next = histogram.collect().getDataPoints().get(0);
		assertThat(next.getCount()).isEqualTo(242);
		assertThat(nativeBuckets(next)).contains(List.of(0L, 5L));
	}

	@Test
	void countsZeroNegativeAndTinyValuesAsZeroAndSkipsNaN() {
		NativeHistogram histogram = NativeHistogram.builder("edge_duration_seconds", "Edge.", List.of(0.5)).build();
		NativeHistogram.DataPoint point = histogram.labelValues();
		point.observe(0.0);
		point.observe(-1.0);
		point.observe(1e-10);
		point.observe(Double.NaN);
		point.observe(0.5);
		point.observe(Double.POSITIVE_INFINITY);
		HistogramDataPointSnapshot snapshot = histogram.collect().getDataPoints().get(0);
		assertThat(snapshot.getCount()).isEqualTo(5);
		assertThat(snapshot.getNativeZeroCount()).isEqualTo(3);
		assertThat(snapshot.getNativeZeroThreshold()).isEqualTo(Math.pow(2, -30));
		// Classic upper bounds include their value: 0.5 is in le="0.5".
		assertThat(classic(snapshot)).containsExactly(List.of(0.5, 4L), List.of(Double.POSITIVE_INFINITY, 1L));
		assertThat(nativeBuckets(snapshot)).containsExactly(List.of(-8L, 1L), List.of(271L, 1L));
	}

	@Test
	void labelsEverySeriesWithItsValuesAndTheConstantLabels() {
		PrometheusRegistry registry = new PrometheusRegistry();
		NativeHistogram histogram = NativeHistogram.builder("bind_duration_seconds", "Bind.", BUCKETS)
			.labelNames("provisioner", "result")
			.constLabels(Labels.of("cluster", "dev"))
			.build();
		registry.register(histogram);
		histogram.labelValues("gpu", "success").observe(0.2);
		histogram.labelValues("gpu", "success").observe(0.3);
		histogram.labelValues("cpu", "error").observe(0.2);
		assertThat(registry.scrape().get(0).getDataPoints()).extracting((point) -> point.getLabels())
			.containsExactlyInAnyOrder(Labels.of("cluster", "dev", "provisioner", "gpu", "result", "success"),
					Labels.of("cluster", "dev", "provisioner", "cpu", "result", "error"));
		assertThat(histogram.getPrometheusName()).isEqualTo("bind_duration_seconds");
		assertThatIllegalArgumentException().isThrownBy(() -> histogram.labelValues("gpu"))
			.withMessageContaining("bind_duration_seconds has the labels [provisioner, result]");
	}

	@Test
	void refusesBucketsThatAreNotAscending() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> NativeHistogram.builder("bad_duration_seconds", "Bad.", List.of(1.0, 0.5)))
			.withMessage("bad_duration_seconds: classic buckets must be ascending, got [1.0, 0.5]");
	}

	/**
	 * The exposition formats require the classic and the native buckets of one scrape to
	 * count the same observations; prometheus-metrics-model refuses a snapshot whose
	 * counts differ. Scrapes taken while four threads observe are whole, and counts never
	 * go down.
	 */
	@Test
	void everyScrapeUnderConcurrentObservationsIsWholeAndNeverGoesDown() throws Exception {
		NativeHistogram histogram = NativeHistogram.builder("busy_duration_seconds", "Busy.", BUCKETS).build();
		NativeHistogram.DataPoint point = histogram.labelValues();
		int threads = 4;
		int perThread = 200_000;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CountDownLatch ready = new CountDownLatch(threads);
		AtomicBoolean go = new AtomicBoolean();
		List<Future<?>> observers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int seed = t;
			observers.add(executor.submit(() -> {
				Random random = new Random(seed);
				ready.countDown();
				while (!go.get()) {
					Thread.onSpinWait();
				}
				for (int i = 0; i < perThread; i++) {
					point.observe(random.nextDouble() * 2);
				}
			}));
		}
		ready.await();
		go.set(true);
		long previous = 0;
		int scrapes = 0;
		while (!observers.stream().allMatch(Future::isDone) || scrapes == 0) {
			HistogramDataPointSnapshot snapshot = histogram.collect().getDataPoints().get(0);
			assertThat(snapshot.getCount()).isGreaterThanOrEqualTo(previous);
			previous = snapshot.getCount();
			scrapes++;
		}
		for (Future<?> observer : observers) {
			observer.get();
		}
		executor.shutdown();
		assertThat(executor.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
		HistogramDataPointSnapshot last = histogram.collect().getDataPoints().get(0);
		assertThat(last.getCount()).isEqualTo((long) threads * perThread);
		assertThat(classic(last).stream().mapToLong((bucket) -> (Long) bucket.get(1)).sum())
			.isEqualTo((long) threads * perThread);
		assertThat(last.getSum()).isCloseTo(threads * perThread, within(threads * perThread * 0.01));
	}

	private static List<List<Object>> classic(HistogramDataPointSnapshot snapshot) {
		List<List<Object>> buckets = new ArrayList<>();
		for (ClassicHistogramBucket bucket : snapshot.getClassicBuckets()) {
			buckets.add(List.of(bucket.getUpperBound(), bucket.getCount()));
		}
		return buckets;
	}

	private static List<List<Long>> nativeBuckets(HistogramDataPointSnapshot snapshot) {
		List<List<Long>> buckets = new ArrayList<>();
		for (NativeHistogramBucket bucket : snapshot.getNativeBucketsForPositiveValues()) {
			buckets.add(List.of((long) bucket.getBucketIndex(), bucket.getCount()));
		}
		return buckets;
	}

}
