package dev.controllerobservability.internal.metrics;

import java.time.Duration;
import java.util.List;

/**
 * What makes a list of histogram bucket boundaries usable: at least one, each finite (and
 * positive for durations), strictly increasing; for durations, which are timed in whole
 * nanoseconds, also between one nanosecond and the longest {@code long} of nanoseconds,
 * and distinct to the nanosecond. Shared by every place that accepts buckets, so the same
 * mistake gets the same explanation.
 */
public final class BucketRules {

	private static final double NANOS_PER_SECOND = 1e9;

	/** Longest duration bucket, in seconds: a {@code long} of nanoseconds. */
	private static final double MAX_DURATION_SECONDS = Long.MAX_VALUE / NANOS_PER_SECOND;

	private BucketRules() {
	}

	/**
	 * Boundaries in seconds as Micrometer service level objectives, to the nanosecond.
	 * @param seconds the boundaries in seconds
	 * @return the same boundaries as durations
	 */
	public static Duration[] durations(List<Double> seconds) {
		return seconds.stream().map((bucket) -> Duration.ofNanos(nanos(bucket))).toArray(Duration[]::new);
	}

	private static long nanos(double seconds) {
		return Math.round(seconds * NANOS_PER_SECOND);
	}

	/**
	 * Checks boundaries of a duration histogram, which Micrometer records in whole
	 * nanoseconds: besides {@link #check(List)}, each boundary is at least one nanosecond
	 * (a boundary of 0 ns makes Micrometer drop the histogram at its first record), at
	 * most {@code Long.MAX_VALUE} nanoseconds (about 292 years; longer ones collapse into
	 * that one), and no two are the same nanosecond.
	 * @param seconds the boundaries in seconds, as configured
	 * @return the first problem, or {@code null} when they are usable
	 */
	public static Problem checkDurations(List<Double> seconds) {
		Problem problem = check(seconds);
		if (problem != null) {
			return problem;
		}
		for (int i = 0; i < seconds.size(); i++) {
			double bucket = seconds.get(i);
			if (nanos(bucket) < 1) {
				return new Problem(i, bucket,
						"a duration boundary below one nanosecond rounds to 0 ns: durations are timed in whole "
								+ "nanoseconds, so no bucket can lie below 1 ns (and Micrometer drops a histogram "
								+ "with a 0 ns bucket at its first record)",
						"Use boundaries of at least 0.000000001 (1 ns), such as 0.005");
			}
			if (bucket >= MAX_DURATION_SECONDS) {
				return new Problem(i, bucket,
						"a duration boundary must be below " + (long) MAX_DURATION_SECONDS
								+ " seconds (about 292 years, the longest duration a count of nanoseconds holds); "
								+ "longer boundaries all collapse into that one",
						"Remove it, or use a boundary such as 3600 (one hour)");
			}
			if (i > 0 && nanos(bucket) == nanos(seconds.get(i - 1))) {
				return new Problem(i, bucket,
						"the boundaries " + seconds.get(i - 1) + " and " + bucket
								+ " are the same whole nanosecond, so they would be one bucket",
						"Keep boundaries at least one nanosecond apart, or remove one of them");
			}
		}
		return null;
	}

	/**
	 * The first boundary that Micrometer's distribution summary cannot split values at.
	 * It rounds each value up to a whole number of at most {@code Long.MAX_VALUE} before
	 * it picks its bucket, which is then the true bucket exactly when every boundary is a
	 * whole number below 2^63.
	 * @param buckets the boundaries
	 * @return the first boundary that is not such a whole number, or {@code null}
	 */
	public static Double roundedUpPast(double[] buckets) {
		for (double boundary : buckets) {
			if (boundary != Math.rint(boundary) || Math.abs(boundary) >= 0x1p63) {
				return boundary;
			}
		}
		return null;
	}

	/**
	 * Checks boundaries of durations, which are positive.
	 * @param buckets the boundaries as configured
	 * @return the first problem, or {@code null} when they are usable
	 */
	public static Problem check(List<Double> buckets) {
		return check(buckets, true);
	}

	/**
	 * Checks boundaries of a declared histogram, which may lie at or below 0: the
	 * histogram then counts the negative values its first boundary makes room for.
	 * @param buckets the boundaries as declared
	 * @return the first problem, or {@code null} when they are usable
	 */
	public static Problem checkValues(List<Double> buckets) {
		return check(buckets, false);
	}

	private static Problem check(List<Double> buckets, boolean positive) {
		if (buckets == null || buckets.isEmpty()) {
			return new Problem(-1, buckets, "at least one bucket boundary is needed",
					"List boundaries in seconds, such as [0.1, 1, 10]");
		}
		for (int i = 0; i < buckets.size(); i++) {
			Double bucket = buckets.get(i);
			if (positive && (bucket == null || !Double.isFinite(bucket) || bucket <= 0)) {
				return new Problem(i, bucket, "bucket boundaries must be positive and finite",
						"Remove it or use a positive number such as 0.005");
			}
			if (bucket == null || !Double.isFinite(bucket)) {
				return new Problem(i, bucket, "bucket boundaries must be finite numbers",
						"Remove it or use a number such as 0.5");
			}
			Double previous = (i > 0) ? buckets.get(i - 1) : null;
			if (previous != null && bucket.equals(previous)) {
				return new Problem(i, bucket, "the boundary " + bucket + " is listed twice",
						"Remove the duplicate boundary");
			}
			if (previous != null && bucket < previous) {
				return new Problem(i, bucket,
						"bucket boundaries must be strictly increasing, but " + bucket + " follows " + previous,
						"List the boundaries in ascending order: " + buckets.stream().sorted().distinct().toList());
			}
		}
		return null;
	}

	/**
	 * One problem with a list of boundaries.
	 *
	 * @param index index of the bad element, or -1 for the list as a whole
	 * @param value the bad value
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	public record Problem(int index, Object value, String reason, String action) {
	}

}
