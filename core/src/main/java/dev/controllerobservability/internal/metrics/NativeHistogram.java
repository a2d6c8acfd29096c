package dev.controllerobservability.internal.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.DoubleAdder;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;

/**
 * A duration histogram as controller-runtime declares its histograms: classic buckets
 * and, at once, native buckets of schema 3 (bucket factor 1.1), at most 100 of them. It
 * is a prometheus-metrics-model {@link Collector}, registered straight with the
 * application's {@code PrometheusRegistry}: the text format carries its classic buckets;
 * the protobuf format, which Prometheus asks for when native histograms are enabled,
 * carries both.
 * <p>
 * An observation allocates nothing and takes no lock: it adds to four counters.
 * prometheus- metrics-core's own histogram allocates on every observation once native
 * buckets are on, and finds the native bucket by halving the value in a loop. Native
 * buckets are kept at schema 3 for good and widened only in what a scrape shows, when
 * more than 100 hold observations; so the histogram never has to start over (a counter
 * reset for Prometheus) to regain its resolution.
 * <p>
 * Observations are durations in seconds: a negative one counts as zero, one of at most
 * 2^-30 s (about a nanosecond) falls in the zero bucket, one beyond about 500 years in
 * the highest native bucket, and NaN is not counted.
 */
public final class NativeHistogram implements Collector {

	/** Native histogram schema: buckets 2^(1/8) wide, controller-runtime's factor 1.1. */
	public static final int SCHEMA = 3;

	/** Most native buckets a scrape shows; more are widened by lowering the schema. */
	public static final int MAX_BUCKETS = 100;

	/** Observations up to 2^-30 seconds (0.93 ns) are counted as zero. */
	static final int ZERO_THRESHOLD_EXPONENT = -30;

	static final double ZERO_THRESHOLD = Math.scalb(1.0, ZERO_THRESHOLD_EXPONENT);

	/** Lowest schema a scrape may fall back to. */
	private static final int MIN_SCHEMA = -4;

	private static final int SUB_BUCKETS = 1 << SCHEMA;

	/**
	 * The smallest native index kept: the bucket whose upper bound is the zero threshold.
	 */
	private static final int MIN_INDEX = ZERO_THRESHOLD_EXPONENT * SUB_BUCKETS;

	private static final int CHUNK_BITS = 5;

	private static final int CHUNK_SIZE = 1 << CHUNK_BITS;

	/**
	 * Native buckets kept, in chunks created on first use: up to 2^(271/8) s, about 500
	 * years.
	 */
	private static final int CHUNKS = 16;

	private static final int MAX_INDEX = MIN_INDEX + CHUNKS * CHUNK_SIZE - 1;

	/**
	 * Where the schema-3 buckets start in each power of two, as fractions of it in [0.5,
	 * 1): 2^(j/8) / 2, to the last bit as client_golang assigns buckets and the
	 * Prometheus server reads their bounds.
	 */
	private static final double[] SUB_BUCKET_BOUNDS = { 0.5, 0.5452538663326288, 0.5946035575013605, 0.6484197773255048,
			0.7071067811865475, 0.7711054127039704, 0.8408964152537144, 0.9170040432046711,
			// A fraction is below 1: the bound after the last.
			1.0 };

	/**
	 * Slices of [0.5, 1) by the top bits of the significand; each holds at most one
	 * bound.
	 */
	private static final int SLICE_BITS = 4;

	/** For each slice, how many bounds lie below its start. */
	private static final int[] BOUNDS_BELOW_SLICE = new int[1 << SLICE_BITS];

	static {
		for (int slice = 0; slice < BOUNDS_BELOW_SLICE.length; slice++) {
			double start = 0.5 + slice / (2.0 * BOUNDS_BELOW_SLICE.length);
			int below = 0;
			while (SUB_BUCKET_BOUNDS[below] < start) {
				below++;
			}
			BOUNDS_BELOW_SLICE[slice] = below;
		}
	}

	private static final long SIGNIFICAND_BITS = 0x000fffffffffffffL;

	private static final long EXPONENT_OF_ONE_HALF = Double.doubleToRawLongBits(0.5);

	private final String name;

	private final String help;

	private final double[] upperBounds;

	/**
	 * For each native bucket, the classic bucket of its smallest values; a value of the
	 * native bucket is in that classic bucket or, past a classic bound inside the native
	 * one, in a later one.
	 */
	private final short[] classicByNative;

	private final String[] labelNames;

	private final Labels constLabels;

	private final Map<List<String>, DataPoint> dataPoints = new ConcurrentHashMap<>();

	private NativeHistogram(String name, String help, double[] upperBounds, String[] labelNames, Labels constLabels) {
		this.name = name;
		this.help = help;
		this.upperBounds = upperBounds;
		this.classicByNative = new short[CHUNKS * CHUNK_SIZE];
		for (int position = 0; position < this.classicByNative.length; position++) {
			double lower = lowerBound(MIN_INDEX + position);
			short classic = 0;
			while (upperBounds[classic] <= lower) {
				classic++;
			}
			this.classicByNative[position] = classic;
		}
		this.labelNames = labelNames;
		this.constLabels = constLabels;
	}

	/**
	 * A builder of a histogram.
	 * @param name the Prometheus name, such as {@code workqueue_work_duration_seconds}
	 * @param help its help text
	 * @param classicBuckets classic upper bounds in seconds, ascending
	 * @return the builder, for labels
	 */
	public static Builder builder(String name, String help, List<Double> classicBuckets) {
		return new Builder(name, help, classicBuckets);
	}

	/**
	 * The series of one set of label values, created on first use.
	 * @param values one value per label name, in their order
	 * @return the series
	 */
	public DataPoint labelValues(String... values) {
		if (values.length != this.labelNames.length) {
			throw new IllegalArgumentException(this.name + " has the labels " + Arrays.toString(this.labelNames)
					+ ", not the values " + Arrays.toString(values));
		}
		return this.dataPoints.computeIfAbsent(List.of(values),
				(key) -> new DataPoint(this, this.constLabels.merge(this.labelNames, values)));
	}

	@Override
	public String getPrometheusName() {
		return this.name;
	}

	@Override
	public HistogramSnapshot collect() {
		HistogramSnapshot.Builder snapshot = HistogramSnapshot.builder().name(this.name).help(this.help);
		for (DataPoint point : this.dataPoints.values()) {
			snapshot.dataPoint(point.snapshot());
		}
		return snapshot.build();
	}

	/**
	 * The native bucket of a positive value at schema 3: bucket {@code i} holds the
	 * values in (2^((i-1)/8), 2^(i/8)].
	 * @param value a value above the zero threshold
	 * @return the bucket index
	 */
	static int nativeIndex(double value) {
		// value = fraction * 2^(exponent + 1), fraction in [0.5, 1), as Go's math.Frexp.
		int exponent = Math.getExponent(value);
		long significand = Double.doubleToRawLongBits(value) & SIGNIFICAND_BITS;
		double fraction = Double.longBitsToDouble(significand | EXPONENT_OF_ONE_HALF);
		// The bounds below the fraction: those below its slice, and perhaps one inside
		// it. A value on a bound belongs to the bucket below it.
		int below = BOUNDS_BELOW_SLICE[(int) (significand >>> (52 - SLICE_BITS))];
		if (SUB_BUCKET_BOUNDS[below] < fraction) {
			below++;
		}
		return exponent * SUB_BUCKETS + below;
	}

	/**
	 * The lower bound of a schema-3 native bucket: values above it belong to the bucket.
	 * @param index the bucket index
	 * @return 2^((index-1)/8) with the server's bounds
	 */
	private static double lowerBound(int index) {
		int below = index - 1;
		return Math.scalb(SUB_BUCKET_BOUNDS[Math.floorMod(below, SUB_BUCKETS)], Math.floorDiv(below, SUB_BUCKETS) + 1);
	}

	private int classicIndex(double value, int nativeIndex) {
		int classic;
		if (nativeIndex == Integer.MIN_VALUE) {
			classic = Arrays.binarySearch(this.upperBounds, value);
			return (classic >= 0) ? classic : -classic - 1;
		}
		classic = this.classicByNative[nativeIndex - MIN_INDEX];
		while (this.upperBounds[classic] < value) {
			classic++;
		}
		return classic;
	}

	/**
	 * Builds a {@link NativeHistogram}.
	 */
	public static final class Builder {

		private final String name;

		private final String help;

		private final double[] upperBounds;

		private String[] labelNames = new String[0];

		private Labels constLabels = Labels.EMPTY;

		private Builder(String name, String help, List<Double> classicBuckets) {
			this.name = Objects.requireNonNull(name, "name");
			this.help = Objects.requireNonNull(help, "help");
			double[] bounds = new double[classicBuckets.size() + 1];
			for (int i = 0; i < classicBuckets.size(); i++) {
				bounds[i] = classicBuckets.get(i);
				if (i > 0 && !(bounds[i] > bounds[i - 1])) {
					throw new IllegalArgumentException(
							name + ": classic buckets must be ascending, got " + classicBuckets);
				}
			}
			bounds[classicBuckets.size()] = Double.POSITIVE_INFINITY;
			this.upperBounds = bounds;
		}

		/**
		 * Sets the label names.
		 * @param labelNames the names, in the order {@link #labelValues} takes the values
		 * @return this builder
		 */
		public Builder labelNames(String... labelNames) {
			this.labelNames = labelNames.clone();
			return this;
		}

		/**
		 * Sets labels every series carries with the same value.
		 * @param constLabels the labels
		 * @return this builder
		 */
		public Builder constLabels(Labels constLabels) {
			this.constLabels = constLabels;
			return this;
		}

		/**
		 * Builds the histogram, not registered yet.
		 * @return the histogram
		 */
		public NativeHistogram build() {
			return new NativeHistogram(this.name, this.help, this.upperBounds, this.labelNames, this.constLabels);
		}

	}

	/**
	 * One series. Observations go to one of two sets of counters, the hot one; a scrape
	 * makes the other one hot, waits until the observations under way in the old one are
	 * done, reads it, then adds it to the new hot one and clears it. Every scrape thus
	 * sees a whole number of observations, the same in the classic and native buckets, as
	 * the exposition formats require (client_golang's histograms work the same way).
	 */
	public static final class DataPoint {

		private static final long HOT_BIT = 1L << 63;

		private static final long COUNT_BITS = HOT_BIT - 1;

		private final NativeHistogram histogram;

		private final Labels labels;

		private final long createdMillis = System.currentTimeMillis();

		/** Observations started, and in the top bit which set of counters is hot. */
		private final AtomicLong countAndHot = new AtomicLong();

		private final Counters[] counters;

		DataPoint(NativeHistogram histogram, Labels labels) {
			this.histogram = histogram;
			this.labels = labels;
			int classicBuckets = histogram.upperBounds.length;
			this.counters = new Counters[] { new Counters(classicBuckets), new Counters(classicBuckets) };
		}

		/**
		 * Counts one observation.
		 * @param seconds the duration in seconds
		 */
		public void observe(double seconds) {
			if (Double.isNaN(seconds)) {
				return;
			}
			double value = Math.max(seconds, 0.0);
			int nativeIndex = (value > ZERO_THRESHOLD) ? Math.min(nativeIndex(value), MAX_INDEX) : Integer.MIN_VALUE;
			int classic = this.histogram.classicIndex(value, nativeIndex);
			long started = this.countAndHot.getAndIncrement();
			this.counters[(int) (started >>> 63)].add(value, classic, nativeIndex);
		}

		synchronized HistogramDataPointSnapshot snapshot() {
			long before = this.countAndHot.getAndAdd(HOT_BIT);
			long count = before & COUNT_BITS;
			Counters cold = this.counters[(int) (before >>> 63)];
			Counters hot = this.counters[(int) (~before >>> 63)];
			cold.awaitCount(count);
			HistogramDataPointSnapshot snapshot = cold.snapshot(this.histogram.upperBounds, this.labels,
					this.createdMillis);
			hot.addAll(cold);
			cold.clear();
			return snapshot;
		}

	}

	/**
	 * One set of counters. An observation writes its classic bucket last: the sum of the
	 * classic buckets therefore counts the observations that are complete.
	 */
	private static final class Counters {

		private final AtomicLongArray classic;

		private final AtomicReferenceArray<AtomicLongArray> nativeChunks = new AtomicReferenceArray<>(CHUNKS);

		private final AtomicLong zero = new AtomicLong();

		private final DoubleAdder sum = new DoubleAdder();

		Counters(int classicBuckets) {
			this.classic = new AtomicLongArray(classicBuckets);
		}

		void add(double value, int classicIndex, int nativeIndex) {
			if (nativeIndex == Integer.MIN_VALUE) {
				this.zero.incrementAndGet();
			}
			else {
				int position = nativeIndex - MIN_INDEX;
				chunk(position >>> CHUNK_BITS).incrementAndGet(position & (CHUNK_SIZE - 1));
			}
			this.sum.add(value);
			this.classic.incrementAndGet(classicIndex);
		}

		private AtomicLongArray chunk(int chunk) {
			AtomicLongArray counts = this.nativeChunks.get(chunk);
			if (counts == null) {
				this.nativeChunks.compareAndSet(chunk, null, new AtomicLongArray(CHUNK_SIZE));
				counts = this.nativeChunks.get(chunk);
			}
			return counts;
		}

		void awaitCount(long count) {
			int spins = 0;
			while (classicTotal() != count) {
				if (++spins < 100) {
					Thread.onSpinWait();
				}
				else {
					Thread.yield();
				}
			}
		}

		private long classicTotal() {
			long total = 0;
			for (int i = 0; i < this.classic.length(); i++) {
				total += this.classic.get(i);
			}
			return total;
		}

		HistogramDataPointSnapshot snapshot(double[] upperBounds, Labels labels, long createdMillis) {
			long[] classicCounts = new long[this.classic.length()];
			for (int i = 0; i < classicCounts.length; i++) {
				classicCounts[i] = this.classic.get(i);
			}
			int[] indexes = new int[CHUNK_SIZE];
			long[] counts = new long[CHUNK_SIZE];
			int size = 0;
			for (int chunk = 0; chunk < CHUNKS; chunk++) {
				AtomicLongArray chunkCounts = this.nativeChunks.get(chunk);
				for (int i = 0; chunkCounts != null && i < CHUNK_SIZE; i++) {
					long bucketCount = chunkCounts.get(i);
					if (bucketCount != 0) {
						if (size == indexes.length) {
							indexes = Arrays.copyOf(indexes, size * 2);
							counts = Arrays.copyOf(counts, size * 2);
						}
						indexes[size] = MIN_INDEX + (chunk << CHUNK_BITS) + i;
						counts[size++] = bucketCount;
					}
				}
			}
			int schema = SCHEMA;
			while (size > MAX_BUCKETS && schema > MIN_SCHEMA) {
				size = widen(indexes, counts, size);
				schema--;
			}
			return HistogramDataPointSnapshot.builder()
				.classicHistogramBuckets(ClassicHistogramBuckets.of(upperBounds, classicCounts))
				.nativeSchema(schema)
				.nativeZeroThreshold(ZERO_THRESHOLD)
				.nativeZeroCount(this.zero.get())
				.nativeBucketsForPositiveValues(
						NativeHistogramBuckets.of(Arrays.copyOf(indexes, size), Arrays.copyOf(counts, size)))
				.sum(this.sum.sum())
				.labels(labels)
				.createdTimestampMillis(createdMillis)
				.build();
		}

		/**
		 * Halves the resolution of ascending native buckets in place: bucket {@code i}
		 * becomes bucket {@code ceil(i / 2)} of the schema below.
		 * @return the number of buckets left
		 */
		private static int widen(int[] indexes, long[] counts, int size) {
			int widened = 0;
			for (int i = 0; i < size; i++) {
				int index = Math.floorDiv(indexes[i] + 1, 2);
				if (widened > 0 && indexes[widened - 1] == index) {
					counts[widened - 1] += counts[i];
				}
				else {
					indexes[widened] = index;
					counts[widened++] = counts[i];
				}
			}
			return widened;
		}

		void addAll(Counters other) {
			for (int chunk = 0; chunk < CHUNKS; chunk++) {
				AtomicLongArray counts = other.nativeChunks.get(chunk);
				for (int i = 0; counts != null && i < CHUNK_SIZE; i++) {
					long bucketCount = counts.get(i);
					if (bucketCount != 0) {
						chunk(chunk).addAndGet(i, bucketCount);
					}
				}
			}
			this.zero.addAndGet(other.zero.get());
			this.sum.add(other.sum.sum());
			for (int i = 0; i < this.classic.length(); i++) {
				this.classic.addAndGet(i, other.classic.get(i));
			}
		}

		void clear() {
			for (int chunk = 0; chunk < CHUNKS; chunk++) {
				AtomicLongArray counts = this.nativeChunks.get(chunk);
				for (int i = 0; counts != null && i < CHUNK_SIZE; i++) {
					counts.set(i, 0);
				}
			}
			this.zero.set(0);
			this.sum.reset();
			for (int i = 0; i < this.classic.length(); i++) {
				this.classic.set(i, 0);
			}
		}

	}

}
