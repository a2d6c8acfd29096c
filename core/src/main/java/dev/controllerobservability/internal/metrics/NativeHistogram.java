package dev.controllerobservability.internal.metrics;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.DoubleAdder;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import org.jspecify.annotations.Nullable;

/**
 * A histogram with classic buckets and, at once, native buckets of schema 3 (bucket
 * factor 1.1), at most 100 of them, as controller-runtime declares its histograms. It is
 * a prometheus-metrics-model {@link Collector}, registered straight with the
 * application's {@code PrometheusRegistry}: the text formats carry its classic buckets;
 * the protobuf format, which Prometheus asks for when native histograms are enabled,
 * carries both.
 * <p>
 * An observation allocates nothing and takes no lock: it adds to one counter and to the
 * sum. The counters are those of the native buckets, each split at the classic bounds
 * that fall inside it, so that a scrape reads both the classic and the native buckets
 * from the same counts, and they always agree, as the exposition formats require. The
 * counter of a value is its native bucket's position plus its classic bucket's index,
 * both found from the value itself, so no table per native bucket is kept, and a series
 * creates its counters 32 at a time when first used. prometheus-metrics-core's own
 * histogram allocates on every observation once native buckets are on, finds the native
 * bucket by halving the value in a loop, and adds to four counters; Micrometer's
 * {@code DistributionSummary} rounds every observation up to a whole number before it
 * picks a bucket (micrometer#516), so bounds such as 0.25 never split observations, and
 * has no native buckets. Native buckets are kept at schema 3 for good and widened only in
 * what a scrape shows, when more than 100 hold observations; so the histogram never has
 * to start over (a counter reset for Prometheus) to regain its resolution.
 * <p>
 * Classic buckets are exact for every value: a value is counted in the first bucket whose
 * upper bound is not below it ({@code le} includes its bound), whatever its native
 * bucket. {@code _count} counts every observation counted, and {@code _sum} is the double
 * sum of the observations in the order they came, as Prometheus clients keep it. What
 * values are counted, and what values the native buckets cover, is the {@link Range} the
 * histogram is built with: {@link Range#DURATIONS} (the default) or
 * {@link Range#ALL_VALUES}. NaN is never counted; {@link DataPoint#observe} says whether
 * a value was.
 * <p>
 * Registered with {@link #register(PrometheusRegistry)}, a histogram is rendered straight
 * to bytes by {@link ScrapeWriter}, with no snapshot objects; {@link #collect()} serves
 * every other reader of the registry.
 */
public final class NativeHistogram implements Collector {

	/** Native histogram schema: buckets 2^(1/8) wide, controller-runtime's factor 1.1. */
	public static final int SCHEMA = 3;

	/** Most native buckets a scrape shows; more are widened by lowering the schema. */
	public static final int MAX_BUCKETS = 100;

	/** Lowest schema a scrape may fall back to. */
	private static final int MIN_SCHEMA = -4;

	private static final int SUB_BUCKETS = 1 << SCHEMA;

	private static final int CHUNK_BITS = 5;

	private static final int CHUNK_SIZE = 1 << CHUNK_BITS;

	/** Chunks of counters per page: a series creates pages, then chunks, on first use. */
	private static final int PAGE_BITS = 5;

	private static final int PAGE_SIZE = 1 << PAGE_BITS;

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

	private static final Comparator<DataPoint> BY_LABELS = Comparator.comparing(DataPoint::labels);

	private static final long SIGNIFICAND_BITS = 0x000fffffffffffffL;

	private static final long EXPONENT_OF_ONE_HALF = Double.doubleToRawLongBits(0.5);

	private final String name;

	private final String help;

	private final Range range;

	private final double[] upperBounds;

	/** Native bucket positions below the zero bucket's: the negative buckets. */
	private final int zeroPosition;

	/** What is taken off a value's position plus classic index to make its counter. */
	private final int firstSlot;

	/** Counters a series may need. */
	private final int slots;

	/** For each classic bucket, its first counter, to find a counter's classic bucket. */
	private final int[] classicFirstSlot;

	/**
	 * For each native bucket position, the classic bounds wholly below the bucket, or
	 * {@code null} when the range has too many positions to keep one (then a binary
	 * search finds the classic bucket).
	 */
	private final int @Nullable [] classicBelowPosition;

	private final String[] labelNames;

	private final Labels constLabels;

	private final Map<List<String>, DataPoint> dataPoints = new ConcurrentHashMap<>();

	/** Series created or removed so far. */
	private final AtomicLong changes = new AtomicLong();

	private volatile @Nullable Sorted sorted;

	private NativeHistogram(String name, String help, Range range, double[] upperBounds, String[] labelNames,
			Labels constLabels) {
		this.name = name;
		this.help = help;
		this.range = range;
		this.upperBounds = upperBounds;
		this.labelNames = labelNames;
		this.constLabels = constLabels;
		this.zeroPosition = range.negativeAsZero ? 0 : range.maxIndex - range.minIndex;
		this.classicBelowPosition = range.negativeAsZero ? classicBelowPosition(upperBounds) : null;
		// Position and classic index both rise with the value, and one at least rises
		// from
		// one counter to the next: their sum numbers the counters in the order of values.
		double lowest = range.negativeAsZero ? 0.0 : Double.NEGATIVE_INFINITY;
		this.firstSlot = rawSlot(lowest);
		this.slots = rawSlot(Double.POSITIVE_INFINITY) - this.firstSlot + 1;
		this.classicFirstSlot = new int[upperBounds.length];
		for (int classic = 0; classic < upperBounds.length; classic++) {
			double smallest = (classic == 0) ? lowest : Math.max(lowest, Math.nextUp(upperBounds[classic - 1]));
			// A classic bucket wholly below the lowest value has no counters.
			this.classicFirstSlot[classic] = (upperBounds[classic] < lowest) ? Integer.MIN_VALUE
					: rawSlot(smallest) - this.firstSlot;
		}
	}

	/**
	 * A builder of a histogram, of {@link Range#DURATIONS} unless told otherwise.
	 * @param name the Prometheus name, such as {@code workqueue_work_duration_seconds}
	 * @param help its help text
	 * @param classicBuckets classic upper bounds, ascending and finite
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
		List<String> key = List.of(values);
		DataPoint point = this.dataPoints.get(key);
		if (point != null) {
			return point;
		}
		DataPoint created = new DataPoint(this, this.constLabels.merge(this.labelNames, values));
		point = this.dataPoints.putIfAbsent(key, created);
		if (point != null) {
			return point;
		}
		// Counted once in the map, so that a scrape never keeps an order without it.
		this.changes.incrementAndGet();
		return created;
	}

	/**
	 * Removes the series of one set of label values: it is no longer exposed, and a later
	 * {@link #labelValues} starts it anew from zero.
	 * @param values one value per label name, in their order
	 * @return whether it existed
	 */
	public boolean remove(String... values) {
		boolean removed = this.dataPoints.remove(List.of(values)) != null;
		if (removed) {
			this.changes.incrementAndGet();
		}
		return removed;
	}

	/**
	 * Registers this histogram with a registry, and remembers it there for
	 * {@link ScrapeWriter}, which renders it without snapshots. <pre>{@code
	 * NativeHistogram histogram = NativeHistogram.builder("karpenter_bind_duration_seconds", "Bind.", buckets).build();
	 * histogram.register(meterRegistry.getPrometheusRegistry());
	 * }</pre>
	 * @param registry the registry
	 * @throws IllegalArgumentException if the registry holds a collector of this name
	 */
	public void register(PrometheusRegistry registry) {
		RenderedHistograms.register(registry, this);
	}

	/**
	 * Unregisters this histogram from a registry it was {@link #register registered}
	 * with.
	 * @param registry the registry
	 */
	public void unregister(PrometheusRegistry registry) {
		RenderedHistograms.unregister(registry, this);
	}

	@Override
	public String getPrometheusName() {
		return this.name;
	}

	String help() {
		return this.help;
	}

	double[] upperBounds() {
		return this.upperBounds;
	}

	double zeroThreshold() {
		return this.range.zeroThreshold;
	}

	Collection<DataPoint> dataPoints() {
		return this.dataPoints.values();
	}

	/**
	 * The series in the order of their labels, as a snapshot lists them; sorted again
	 * only after series came or went, as a scrape of many series would otherwise spend
	 * much of its time sorting.
	 */
	DataPoint[] sortedDataPoints() {
		Sorted sorted = this.sorted;
		long changes = this.changes.get();
		if (sorted != null && sorted.changes == changes) {
			return sorted.points;
		}
		DataPoint[] points = this.dataPoints.values().toArray(new DataPoint[0]);
		Arrays.sort(points, BY_LABELS);
		// Kept only if no series came or went while sorting.
		if (this.changes.get() == changes) {
			this.sorted = new Sorted(changes, points);
		}
		return points;
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
	 * @param value a normal double above zero, or +Inf (in bucket 8192, whose upper bound
	 * 2^1024 is +Inf as a double)
	 * @return the bucket index
	 */
	static int nativeIndex(double value) {
		// value = fraction * 2^(exponent + 1), fraction in [0.5, 1), as Go's math.Frexp.
		// For a subnormal double the significand bits are no such fraction: the zero
		// threshold keeps them out.
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

	/** The classic bucket of a value: the first whose upper bound is not below it. */
	private static int classicIndex(double[] upperBounds, double value) {
		// Bounds hold no -0.0, and -0.0 sorts just below 0.0: it finds 0.0's bucket.
		int found = Arrays.binarySearch(upperBounds, value);
		return (found >= 0) ? found : -found - 1;
	}

	/**
	 * The position of a value's native bucket among all of them, in the order of values:
	 * negative buckets, the zero bucket, positive buckets.
	 */
	private int position(double value) {
		double magnitude = Math.abs(value);
		if (!(magnitude > this.range.zeroThreshold)) {
			return this.zeroPosition;
		}
		int fromZero = Math.min(nativeIndex(magnitude), this.range.maxIndex) - this.range.minIndex;
		return (value > 0) ? this.zeroPosition + fromZero : this.zeroPosition - fromZero;
	}

	/**
	 * The counter of a value, not NaN, in the range, before {@link #firstSlot} is taken
	 * off.
	 */
	private int rawSlot(double value) {
		int position = position(value);
		int[] classicBelow = this.classicBelowPosition;
		if (classicBelow == null || position < 0) {
			return position + classicIndex(this.upperBounds, value);
		}
		// Bounds in the value's own native bucket are the only ones left to compare, and
		// the last bound, +Inf, is never below a value: the loop ends in the array.
		int classic = classicBelow[position];
		while (this.upperBounds[classic] < value) {
			classic++;
		}
		return position + classic;
	}

	/**
	 * For each position of a non-negative value's native bucket, how many classic bounds
	 * lie below it: the bounds of lower positions, as positions rise with values.
	 */
	private int[] classicBelowPosition(double[] upperBounds) {
		int[] below = new int[this.zeroPosition + this.range.maxIndex - this.range.minIndex + 1];
		int bound = 0;
		for (int position = 0; position < below.length; position++) {
			while (bound < upperBounds.length && position(upperBounds[bound]) < position) {
				bound++;
			}
			below[position] = bound;
		}
		return below;
	}

	/** The classic bucket of a counter: the last whose first counter is not after it. */
	private int classicOf(int slot) {
		int low = 0;
		int high = this.classicFirstSlot.length - 1;
		while (low < high) {
			int middle = (low + high + 1) >>> 1;
			if (this.classicFirstSlot[middle] <= slot) {
				low = middle;
			}
			else {
				high = middle - 1;
			}
		}
		return low;
	}

	/**
	 * What values the native buckets cover, and how values outside are counted. Classic
	 * buckets, {@code _count} and {@code _sum} are exact in both but for what
	 * {@link #DURATIONS} counts as zero.
	 */
	public enum Range {

		/**
		 * Durations in seconds: a negative value counts as zero (in its classic bucket
		 * and in the sum), one of at most 2^-30 s (about a nanosecond) falls in the zero
		 * bucket, and one beyond 2^(271/8) s (about 500 years), +Inf included, in the
		 * highest native bucket, 271.
		 */
		DURATIONS(-30, 271, true, Double.POSITIVE_INFINITY),

		/**
		 * Any value, each in the native bucket the native histogram specification gives
		 * it: a negative value in the negative bucket mirroring its magnitude's, 0, -0.0
		 * and subnormal values (at most {@link Double#MIN_NORMAL}, 2^-1022, in magnitude)
		 * in the zero bucket, and the largest values, infinities included, in bucket
		 * 8192, (2^(8191/8), 2^1024], whose upper bound is +Inf as a double. The zero
		 * threshold is the smallest normal double because it is the smallest that gives
		 * every normal double its own bucket (the bucket of a subnormal cannot be read
		 * from its bits as a normal double's is) and it is a power of two, so a bucket
		 * bound at every schema.
		 */
		ALL_VALUES(-1022, 8192, false, Double.MAX_VALUE);

		private final double zeroThreshold;

		/** The native bucket whose upper bound is the zero threshold; it stays empty. */
		private final int minIndex;

		private final int maxIndex;

		private final boolean negativeAsZero;

		/** The largest magnitude counted. */
		private final double largest;

		Range(int zeroThresholdExponent, int maxIndex, boolean negativeAsZero, double largest) {
			this.largest = largest;
			this.zeroThreshold = Math.scalb(1.0, zeroThresholdExponent);
			this.minIndex = zeroThresholdExponent * SUB_BUCKETS;
			this.maxIndex = maxIndex;
			this.negativeAsZero = negativeAsZero;
		}

		/**
		 * The zero bucket's threshold: values of at most this magnitude are counted in
		 * it.
		 * @return 2^-30 for durations, 2^-1022 for all values
		 */
		public double zeroThreshold() {
			return this.zeroThreshold;
		}

	}

	/**
	 * Builds a {@link NativeHistogram}.
	 */
	public static final class Builder {

		private final String name;

		private final String help;

		private final double[] upperBounds;

		private Range range = Range.DURATIONS;

		private String[] labelNames = new String[0];

		private Labels constLabels = Labels.EMPTY;

		private Builder(String name, String help, List<Double> classicBuckets) {
			this.name = Objects.requireNonNull(name, "name");
			this.help = Objects.requireNonNull(help, "help");
			double[] bounds = new double[classicBuckets.size() + 1];
			for (int i = 0; i < classicBuckets.size(); i++) {
				Double bucket = classicBuckets.get(i);
				if (bucket == null || !Double.isFinite(bucket)) {
					throw new IllegalArgumentException(name + ": classic buckets must be finite numbers, got "
							+ classicBuckets + "; +Inf is always the last bucket");
				}
				// -0.0 is 0.0 as a bound: a value of 0.0 is not above it.
				bounds[i] = bucket + 0.0;
				if (i > 0 && !(bounds[i] > bounds[i - 1])) {
					throw new IllegalArgumentException(
							name + ": classic buckets must be ascending, got " + classicBuckets);
				}
			}
			bounds[classicBuckets.size()] = Double.POSITIVE_INFINITY;
			this.upperBounds = bounds;
		}

		/**
		 * Sets what values the native buckets cover.
		 * @param range {@link Range#DURATIONS}, the default, or {@link Range#ALL_VALUES}
		 * @return this builder
		 */
		public Builder range(Range range) {
			this.range = Objects.requireNonNull(range, "range");
			return this;
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
			return new NativeHistogram(this.name, this.help, this.range, this.upperBounds, this.labelNames,
					this.constLabels);
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

		private final AtomicReferenceArray<AtomicReferenceArray<AtomicLongArray>> pages;

		private final DoubleAdder sum = new DoubleAdder();

		DataPoint(NativeHistogram histogram, Labels labels) {
			this.histogram = histogram;
			this.labels = labels;
			int pageCounters = CHUNK_SIZE * PAGE_SIZE;
			this.pages = new AtomicReferenceArray<>((histogram.slots + pageCounters - 1) / pageCounters);
		}

		/**
		 * Counts one observation, unless it is NaN or, for {@link Range#ALL_VALUES},
		 * infinite.
		 * @param value the value, in seconds for {@link Range#DURATIONS}
		 * @return whether it was counted
		 */
		public boolean observe(double value) {
			NativeHistogram histogram = this.histogram;
			double observed = histogram.range.negativeAsZero ? Math.max(value, 0.0) : value;
			// False for NaN too.
			if (!(Math.abs(observed) <= histogram.range.largest)) {
				return false;
			}
			int slot = histogram.rawSlot(observed) - histogram.firstSlot;
			chunk(slot >>> CHUNK_BITS).incrementAndGet(slot & (CHUNK_SIZE - 1));
			this.sum.add(observed);
			return true;
		}

		/**
		 * The observations counted: every counter read once, each not below what it was
		 * when the read started.
		 * @return the count
		 */
		public long count() {
			long count = 0;
			for (int p = 0; p < this.pages.length(); p++) {
				AtomicReferenceArray<AtomicLongArray> page = this.pages.get(p);
				for (int c = 0; page != null && c < PAGE_SIZE; c++) {
					AtomicLongArray chunkCounts = page.get(c);
					for (int i = 0; chunkCounts != null && i < CHUNK_SIZE; i++) {
						count += chunkCounts.get(i);
					}
				}
			}
			return count;
		}

		private AtomicLongArray chunk(int chunk) {
			AtomicReferenceArray<AtomicLongArray> page = this.pages.get(chunk >>> PAGE_BITS);
			if (page == null) {
				this.pages.compareAndSet(chunk >>> PAGE_BITS, null, new AtomicReferenceArray<>(PAGE_SIZE));
				page = this.pages.get(chunk >>> PAGE_BITS);
			}
			AtomicLongArray counts = page.get(chunk & (PAGE_SIZE - 1));
			if (counts == null) {
				page.compareAndSet(chunk & (PAGE_SIZE - 1), null, new AtomicLongArray(CHUNK_SIZE));
				counts = page.get(chunk & (PAGE_SIZE - 1));
			}
			return counts;
		}

		Labels labels() {
			return this.labels;
		}

		HistogramDataPointSnapshot snapshot() {
			Reading reading = new Reading(this.histogram.upperBounds.length);
			read(reading);
			return HistogramDataPointSnapshot.builder()
				.classicHistogramBuckets(ClassicHistogramBuckets.of(this.histogram.upperBounds, reading.classicCounts))
				.nativeSchema(reading.schema)
				.nativeZeroThreshold(this.histogram.range.zeroThreshold)
				.nativeZeroCount(reading.zeroCount)
				.nativeBucketsForPositiveValues(reading.positive.buckets())
				.nativeBucketsForNegativeValues(reading.negative.buckets())
				.sum(reading.sum)
				.labels(this.labels)
				.createdTimestampMillis(this.createdMillis)
				.build();
		}

		/**
		 * Reads the series into a reading, each counter once, so that classic and native
		 * buckets, and the count summed from them, agree.
		 * @param reading where to read it, of as many classic buckets as the histogram
		 */
		void read(Reading reading) {
			NativeHistogram histogram = this.histogram;
			reading.reset();
			long[] classicCounts = reading.classicCounts;
			NativeCounts positive = reading.positive;
			NativeCounts negative = reading.negative;
			long zeroCount = 0;
			for (int p = 0; p < this.pages.length(); p++) {
				AtomicReferenceArray<AtomicLongArray> page = this.pages.get(p);
				for (int c = 0; page != null && c < PAGE_SIZE; c++) {
					AtomicLongArray chunkCounts = page.get(c);
					for (int i = 0; chunkCounts != null && i < CHUNK_SIZE; i++) {
						long count = chunkCounts.get(i);
						if (count == 0) {
							continue;
						}
						int slot = (((p << PAGE_BITS) + c) << CHUNK_BITS) + i;
						int classic = histogram.classicOf(slot);
						classicCounts[classic] += count;
						int fromZero = slot + histogram.firstSlot - classic - histogram.zeroPosition;
						if (fromZero == 0) {
							zeroCount += count;
						}
						else if (fromZero > 0) {
							positive.add(histogram.range.minIndex + fromZero, count);
						}
						else {
							negative.add(histogram.range.minIndex - fromZero, count);
						}
					}
				}
			}
			// Negative buckets came from the most negative value up: the highest index
			// first.
			negative.reverse();
			int schema = SCHEMA;
			while (positive.size + negative.size > MAX_BUCKETS && schema > MIN_SCHEMA) {
				positive.widen();
				negative.widen();
				schema--;
			}
			reading.zeroCount = zeroCount;
			reading.schema = schema;
			reading.sum = this.sum.sum();
		}

	}

	/**
	 * One series as a scrape reads it; a renderer reuses one for every series of a
	 * histogram, so that reading allocates nothing.
	 */
	static final class Reading {

		final long[] classicCounts;

		final NativeCounts positive = new NativeCounts();

		final NativeCounts negative = new NativeCounts();

		long zeroCount;

		int schema;

		double sum;

		Reading(int classicBuckets) {
			this.classicCounts = new long[classicBuckets];
		}

		void reset() {
			Arrays.fill(this.classicCounts, 0);
			this.positive.size = 0;
			this.negative.size = 0;
		}

		/**
		 * The observation count as the snapshot sums it from the classic buckets: below
		 * zero once it overflows, when the formats leave it out.
		 */
		long count() {
			long count = 0;
			for (long bucket : this.classicCounts) {
				count += bucket;
			}
			return count;
		}

	}

	/** The series in the order of their labels after some number of changes. */
	private record Sorted(long changes, DataPoint[] points) {
	}

	/** Native buckets of one sign being read for a scrape, ascending by index. */
	static final class NativeCounts {

		private int[] indexes = new int[CHUNK_SIZE];

		private long[] counts = new long[CHUNK_SIZE];

		private int size;

		int size() {
			return this.size;
		}

		int index(int i) {
			return this.indexes[i];
		}

		long count(int i) {
			return this.counts[i];
		}

		/** Adds to the last bucket if it is the same, else appends one. */
		void add(int index, long count) {
			if (this.size > 0 && this.indexes[this.size - 1] == index) {
				this.counts[this.size - 1] += count;
				return;
			}
			if (this.size == this.indexes.length) {
				this.indexes = Arrays.copyOf(this.indexes, this.size * 2);
				this.counts = Arrays.copyOf(this.counts, this.size * 2);
			}
			this.indexes[this.size] = index;
			this.counts[this.size++] = count;
		}

		void reverse() {
			for (int i = 0, j = this.size - 1; i < j; i++, j--) {
				int index = this.indexes[i];
				this.indexes[i] = this.indexes[j];
				this.indexes[j] = index;
				long count = this.counts[i];
				this.counts[i] = this.counts[j];
				this.counts[j] = count;
			}
		}

		/**
		 * Halves the resolution in place: bucket {@code i} becomes bucket
		 * {@code ceil(i / 2)} of the schema below.
		 */
		void widen() {
			int[] from = Arrays.copyOf(this.indexes, this.size);
			long[] fromCounts = Arrays.copyOf(this.counts, this.size);
			this.size = 0;
			for (int i = 0; i < from.length; i++) {
				add(Math.floorDiv(from[i] + 1, 2), fromCounts[i]);
			}
		}

		NativeHistogramBuckets buckets() {
			return NativeHistogramBuckets.of(Arrays.copyOf(this.indexes, this.size),
					Arrays.copyOf(this.counts, this.size));
		}

	}

}
