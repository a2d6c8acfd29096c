package dev.controllerobservability.metrics;

import java.time.Duration;
import java.util.List;

/**
 * What makes a list of histogram bucket boundaries usable: at least one, each positive
 * and finite, strictly increasing. Shared by every place that accepts buckets, so the
 * same mistake gets the same explanation.
 */
public final class BucketRules {

	private BucketRules() {
	}

	/**
	 * Boundaries in seconds as Micrometer service level objectives, to the nanosecond.
	 * @param seconds the boundaries in seconds
	 * @return the same boundaries as durations
	 */
	public static Duration[] durations(List<Double> seconds) {
		return seconds.stream().map((bucket) -> Duration.ofNanos(Math.round(bucket * 1e9))).toArray(Duration[]::new);
	}

	/**
	 * Checks boundaries.
	 * @param buckets the boundaries as configured
	 * @return the first problem, or {@code null} when they are usable
	 */
	public static Problem check(List<Double> buckets) {
		if (buckets == null || buckets.isEmpty()) {
			return new Problem(-1, buckets, "at least one bucket boundary is needed",
					"List boundaries in seconds, such as [0.1, 1, 10]");
		}
		for (int i = 0; i < buckets.size(); i++) {
			Double bucket = buckets.get(i);
			if (bucket == null || !Double.isFinite(bucket) || bucket <= 0) {
				return new Problem(i, bucket, "bucket boundaries must be positive and finite",
						"Remove it or use a positive number such as 0.005");
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
