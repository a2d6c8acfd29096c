package dev.controllerobservability.internal.metrics;

import java.util.ArrayList;
import java.util.List;

import dev.controllerobservability.internal.test.Allocations;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBucket;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.NativeHistogramBucket;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A histogram of {@link NativeHistogram.Range#ALL_VALUES}, value by value: what the
 * properties of {@link NativeHistogramPropertyTests} cover at random, here on the values
 * that motivate it.
 */
class NativeHistogramAllValuesTests {

	private static final List<Double> TENTHS = List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0);

	@Test
	void splitsRatiosAtBoundsThatAreNotWholeNumbers() {
		NativeHistogram.DataPoint point = histogram(TENTHS);
		for (double value : new double[] { 0.05, 0.3, 0.8, 0.95 }) {
			point.observe(value);
		}
		HistogramDataPointSnapshot snapshot = point.snapshot();
		assertThat(cumulative(snapshot)).containsExactly(List.of(0.1, 1L), List.of(0.2, 1L), List.of(0.3, 2L),
				List.of(0.4, 2L), List.of(0.5, 2L), List.of(0.6, 2L), List.of(0.7, 2L), List.of(0.8, 3L),
				List.of(0.9, 3L), List.of(1.0, 4L), List.of(Double.POSITIVE_INFINITY, 4L));
		assertThat(snapshot.getSum()).isEqualTo(0.05 + 0.3 + 0.8 + 0.95);
	}

	@Test
	void countsNegativeValuesBelowZeroAndInNegativeNativeBuckets() {
		NativeHistogram.DataPoint point = histogram(List.of(-1.0, -0.5, 0.0, 0.5));
		point.observe(-0.5);
		point.observe(Math.nextDown(-0.5));
		point.observe(-0.0);
		point.observe(-2.0);
		HistogramDataPointSnapshot snapshot = point.snapshot();
		assertThat(cumulative(snapshot)).containsExactly(List.of(-1.0, 1L), List.of(-0.5, 3L), List.of(0.0, 4L),
				List.of(0.5, 4L), List.of(Double.POSITIVE_INFINITY, 4L));
		assertThat(snapshot.getSum()).isEqualTo(-0.5 + Math.nextDown(-0.5) - 2.0);
		// 0.5 is the upper bound of bucket -8; 2 of bucket 8.
		assertThat(nativeBuckets(snapshot.getNativeBucketsForNegativeValues())).containsExactly(List.of(-8L, 1L),
				List.of(-7L, 1L), List.of(8L, 1L));
		assertThat(snapshot.getNativeZeroCount()).isOne();
	}

	@Test
	void countsANegativeValueInTheFirstBucketWhenNoBoundIsNegative() {
		NativeHistogram.DataPoint point = histogram(List.of(1.0, 2.0));
		point.observe(-3.0);
		HistogramDataPointSnapshot snapshot = point.snapshot();
		assertThat(cumulative(snapshot)).containsExactly(List.of(1.0, 1L), List.of(2.0, 1L),
				List.of(Double.POSITIVE_INFINITY, 1L));
		assertThat(snapshot.getCount()).isOne();
		assertThat(snapshot.getSum()).isEqualTo(-3.0);
	}

	@Test
	void countsZeroAndSubnormalValuesInTheZeroBucketAndTheirTrueClassicBucket() {
		NativeHistogram.DataPoint point = histogram(List.of(0.0, Double.MIN_VALUE, Double.MIN_NORMAL));
		point.observe(0.0);
		point.observe(Double.MIN_VALUE);
		point.observe(-Double.MIN_VALUE);
		point.observe(Double.MIN_NORMAL);
		point.observe(Math.nextUp(Double.MIN_NORMAL));
		HistogramDataPointSnapshot snapshot = point.snapshot();
		assertThat(snapshot.getNativeZeroThreshold()).isEqualTo(Double.MIN_NORMAL)
			.isEqualTo(NativeHistogram.Range.ALL_VALUES.zeroThreshold());
		assertThat(snapshot.getNativeZeroCount()).isEqualTo(4);
		assertThat(nativeBuckets(snapshot.getNativeBucketsForPositiveValues())).containsExactly(List.of(-8175L, 1L));
		assertThat(cumulative(snapshot)).containsExactly(List.of(0.0, 2L), List.of(Double.MIN_VALUE, 3L),
				List.of(Double.MIN_NORMAL, 4L), List.of(Double.POSITIVE_INFINITY, 5L));
	}

	@Test
	void countsTheLargestValuesInBucket8192AndNeitherInfinityNorNaN() {
		NativeHistogram.DataPoint point = histogram(List.of(1.0));
		assertThat(point.observe(Double.MAX_VALUE)).isTrue();
		assertThat(point.observe(-Double.MAX_VALUE)).isTrue();
		assertThat(point.observe(Double.POSITIVE_INFINITY)).isFalse();
		assertThat(point.observe(Double.NEGATIVE_INFINITY)).isFalse();
		assertThat(point.observe(Double.NaN)).isFalse();
		HistogramDataPointSnapshot snapshot = point.snapshot();
		assertThat(snapshot.getCount()).isEqualTo(2);
		assertThat(snapshot.getSum()).isZero();
		assertThat(nativeBuckets(snapshot.getNativeBucketsForPositiveValues())).containsExactly(List.of(8192L, 1L));
		assertThat(nativeBuckets(snapshot.getNativeBucketsForNegativeValues())).containsExactly(List.of(8192L, 1L));
		assertThat(cumulative(snapshot)).containsExactly(List.of(1.0, 1L), List.of(Double.POSITIVE_INFINITY, 2L));
	}

	/**
	 * Positive and negative buckets together are at most 100 in a scrape: both are
	 * widened, bucket {@code i} becoming bucket {@code ceil(i / 2)}.
	 */
	@Test
	void widensPositiveAndNegativeBucketsTogether() {
		NativeHistogram.DataPoint point = histogram(List.of());
		// One value in each of 81 buckets of schema 3 on each side, from 2^-5 to 2^5.
		for (int k = -40; k <= 40; k++) {
			point.observe(Math.pow(2, k / 8.0) * 0.99);
			point.observe(-Math.pow(2, k / 8.0) * 0.99);
		}
		HistogramDataPointSnapshot snapshot = point.snapshot();
		// Schema 2 needs 41 buckets on each side: buckets -20 to 20.
		assertThat(snapshot.getNativeSchema()).isEqualTo(2);
		List<List<Long>> expected = new ArrayList<>();
		expected.add(List.of(-20L, 1L));
		for (long j = -19; j <= 20; j++) {
			expected.add(List.of(j, 2L));
		}
		assertThat(nativeBuckets(snapshot.getNativeBucketsForPositiveValues())).isEqualTo(expected);
		assertThat(nativeBuckets(snapshot.getNativeBucketsForNegativeValues())).isEqualTo(expected);
	}

	@Test
	void refusesBucketsThatAreNotFinite() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> NativeHistogram.builder("bad_ratio", "Bad.", List.of(0.5, Double.POSITIVE_INFINITY)))
			.withMessage("bad_ratio: classic buckets must be finite numbers, got [0.5, Infinity]; "
					+ "+Inf is always the last bucket");
	}

	@Test
	void observesAnyValueWithoutAllocating() {
		NativeHistogram.DataPoint point = histogram(TENTHS);
		double[] values = { -1e300, -3.5, -0.25, -Double.MIN_VALUE, 0.0, 0.05, 0.3, 0.95, 1.0, 17.0, 1e300,
				Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_NORMAL, Math.nextUp(Double.MIN_NORMAL), 2.5e-200 };
		// Every counter the values need exists before measuring.
		for (double value : values) {
			point.observe(value);
		}
		int[] next = { 0 };
		assertThat(Allocations.leastPerCall(() -> point.observe(values[next[0]++ & 15]), 100_000, 5))
			.as("bytes allocated per observe")
			.isLessThan(0.01);
	}

	private static NativeHistogram.DataPoint histogram(List<Double> buckets) {
		return NativeHistogram.builder("exact_ratio", "Exact.", buckets)
			.range(NativeHistogram.Range.ALL_VALUES)
			.build()
			.labelValues();
	}

	private static List<List<Object>> cumulative(HistogramDataPointSnapshot snapshot) {
		List<List<Object>> buckets = new ArrayList<>();
		long count = 0;
		for (ClassicHistogramBucket bucket : snapshot.getClassicBuckets()) {
			count += bucket.getCount();
			buckets.add(List.of(bucket.getUpperBound(), count));
		}
		return buckets;
	}

	private static List<List<Long>> nativeBuckets(NativeHistogramBuckets buckets) {
		List<List<Long>> indexes = new ArrayList<>();
		for (NativeHistogramBucket bucket : buckets) {
			indexes.add(List.of((long) bucket.getBucketIndex(), bucket.getCount()));
		}
		return indexes;
	}

}
