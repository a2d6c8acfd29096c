package dev.controllerobservability.internal.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
 * An observation allocates nothing and takes no lock: it adds to one counter and to the
 * sum. The counters are those of the native buckets, each split at the classic bounds
 * that fall inside it, so that a scrape reads both the classic and the native buckets
 * from the same counts, and they always agree, as the exposition formats require.
 * prometheus-metrics-core's own histogram allocates on every observation once native
 * buckets are on, finds the native bucket by halving the value in a loop, and adds to
 * four counters. Native buckets are kept at schema 3 for good and widened only in what a
 * scrape shows, when more than 100 hold observations; so the histogram never has to start
 * over (a counter reset for Prometheus) to regain its resolution.
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
	static final double ZERO_THRESHOLD = Math.scalb(1.0, -30);

	/** Lowest schema a scrape may fall back to. */
	private static final int MIN_SCHEMA = -4;

	private static final int SUB_BUCKETS = 1 << SCHEMA;

	/** The native bucket whose upper bound is the zero threshold; it stays empty. */
	private static final int MIN_INDEX = -30 * SUB_BUCKETS;

	/** Native buckets kept: up to 2^(271/8) s, about 500 years. */
	private static final int NATIVE_BUCKETS = 512;

	private static final int MAX_INDEX = MIN_INDEX + NATIVE_BUCKETS - 1;

	/** No native bucket: the zero bucket. */
	private static final int ZERO = Integer.MIN_VALUE;

	private static final int CHUNK_BITS = 5;

	private static final int CHUNK_SIZE = 1 << CHUNK_BITS;

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
	 * For each native bucket, two numbers: the classic bucket of its smallest values, and
	 * what to add to a classic bucket index to find the counter of the native bucket's
	 * values in that classic bucket.
	 */
	private final int[] layout;

	/** The classic bucket of the zero bucket's smallest values. */
	private final int zeroFirstClassic;

	/** For each counter, its native bucket ({@link #ZERO} for the zero bucket). */
	private final int[] slotNative;

	/** For each counter, its classic bucket. */
	private final int[] slotClassic;

	private final String[] labelNames;

	private final Labels constLabels;

	private final Map<List<String>, DataPoint> dataPoints = new ConcurrentHashMap<>();

	private NativeHistogram(String name, String help, double[] upperBounds, String[] labelNames, Labels constLabels) {
		this.name = name;
		this.help = help;
		this.upperBounds = upperBounds;
		this.labelNames = labelNames;
		this.constLabels = constLabels;
		// The zero bucket first, split at the classic bounds up to the zero threshold,
		// then each native bucket, split at the classic bounds inside it.
		List<int[]> slots = new ArrayList<>();
		this.zeroFirstClassic = classicIndex(upperBounds, 0.0);
		for (int classic = this.zeroFirstClassic; classic <= classicIndex(upperBounds, ZERO_THRESHOLD); classic++) {
			slots.add(new int[] { ZERO, classic });
		}
		this.layout = new int[2 * NATIVE_BUCKETS];
		for (int position = 0; position < NATIVE_BUCKETS; position++) {
			int index = MIN_INDEX + position;
			double upper = (index == MAX_INDEX) ? Double.POSITIVE_INFINITY : lowerBound(index + 1);
			int first = classicIndex(upperBounds, Math.nextUp(lowerBound(index)));
			this.layout[2 * position] = first;
			this.layout[2 * position + 1] = slots.size() - first;
			for (int classic = first; classic <= classicIndex(upperBounds, upper); classic++) {
				slots.add(new int[] { index, classic });
			}
		}
		this.slotNative = slots.stream().mapToInt((slot) -> slot[0]).toArray();
		this.slotClassic = slots.stream().mapToInt((slot) -> slot[1]).toArray();
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
	 * Labels every series of a histogram carries with the same value, leaving out those
	 * the series have a label of their own for: the series' own label wins.
	 * @param labels names and values, such as common tags
	 * @param labelNames the series' own label names
	 * @return the constant labels
	 */
	public static Labels constantLabels(Map<String, String> labels, String... labelNames) {
		Map<String, String> constant = new TreeMap<>(labels);
		constant.keySet().removeAll(List.of(labelNames));
		return Labels.of(List.copyOf(constant.keySet()), List.copyOf(constant.values()));
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

	/** The classic bucket of a value: the first whose upper bound is not below it. */
	private static int classicIndex(double[] upperBounds, double value) {
		int found = Arrays.binarySearch(upperBounds, value);
		return (found >= 0) ? found : -found - 1;
	}

	/** The counter of a value above the zero threshold. */
	private int slot(double value) {
		int entry = 2 * (Math.min(nativeIndex(value), MAX_INDEX) - MIN_INDEX);
		int classic = this.layout[entry];
		// Past the classic bounds inside the native bucket, if any.
		while (this.upperBounds[classic] < value) {
			classic++;
		}
		return this.layout[entry + 1] + classic;
	}

	/** The counter of a value in the zero bucket, not negative. */
	private int zeroSlot(double value) {
		return classicIndex(this.upperBounds, value) - this.zeroFirstClassic;
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
	 * One series: a counter per native bucket and classic bucket it spans, created a
	 * chunk at a time on first use, and the sum.
	 */
	public static final class DataPoint {

		private final NativeHistogram histogram;

		private final Labels labels;

		private final long createdMillis = System.currentTimeMillis();

		private final AtomicReferenceArray<AtomicLongArray> chunks;

		private final DoubleAdder sum = new DoubleAdder();

		DataPoint(NativeHistogram histogram, Labels labels) {
			this.histogram = histogram;
			this.labels = labels;
			this.chunks = new AtomicReferenceArray<>((histogram.slotNative.length + CHUNK_SIZE - 1) >>> CHUNK_BITS);
		}

		/**
		 * Counts one observation.
		 * @param seconds the duration in seconds
		 */
		public void observe(double seconds) {
			double value = seconds;
			int slot;
			if (value > ZERO_THRESHOLD) {
				slot = this.histogram.slot(value);
			}
			else if (Double.isNaN(value)) {
				return;
			}
			else {
				value = Math.max(value, 0.0);
				slot = this.histogram.zeroSlot(value);
			}
			chunk(slot >>> CHUNK_BITS).incrementAndGet(slot & (CHUNK_SIZE - 1));
			this.sum.add(value);
		}

		private AtomicLongArray chunk(int chunk) {
			AtomicLongArray counts = this.chunks.get(chunk);
			if (counts == null) {
				this.chunks.compareAndSet(chunk, null, new AtomicLongArray(CHUNK_SIZE));
				counts = this.chunks.get(chunk);
			}
			return counts;
		}

		HistogramDataPointSnapshot snapshot() {
			NativeHistogram histogram = this.histogram;
			long[] classicCounts = new long[histogram.upperBounds.length];
			long zeroCount = 0;
			int[] indexes = new int[CHUNK_SIZE];
			long[] counts = new long[CHUNK_SIZE];
			int size = 0;
			// Each counter is read once, and both kinds of buckets are summed from it.
			for (int chunk = 0; chunk < this.chunks.length(); chunk++) {
				AtomicLongArray chunkCounts = this.chunks.get(chunk);
				for (int i = 0; chunkCounts != null && i < CHUNK_SIZE; i++) {
					long count = chunkCounts.get(i);
					if (count == 0) {
						continue;
					}
					int slot = (chunk << CHUNK_BITS) + i;
					classicCounts[histogram.slotClassic[slot]] += count;
					int index = histogram.slotNative[slot];
					if (index == ZERO) {
						zeroCount += count;
					}
					else if (size > 0 && indexes[size - 1] == index) {
						counts[size - 1] += count;
					}
					else {
						if (size == indexes.length) {
							indexes = Arrays.copyOf(indexes, size * 2);
							counts = Arrays.copyOf(counts, size * 2);
						}
						indexes[size] = index;
						counts[size++] = count;
					}
				}
			}
			int schema = SCHEMA;
			while (size > MAX_BUCKETS && schema > MIN_SCHEMA) {
				size = widen(indexes, counts, size);
				schema--;
			}
			return HistogramDataPointSnapshot.builder()
				.classicHistogramBuckets(ClassicHistogramBuckets.of(histogram.upperBounds, classicCounts))
				.nativeSchema(schema)
				.nativeZeroThreshold(ZERO_THRESHOLD)
				.nativeZeroCount(zeroCount)
				.nativeBucketsForPositiveValues(
						NativeHistogramBuckets.of(Arrays.copyOf(indexes, size), Arrays.copyOf(counts, size)))
				.sum(this.sum.sum())
				.labels(this.labels)
				.createdTimestampMillis(this.createdMillis)
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

	}

}
