package dev.controllerobservability.operations;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.stability.StabilityLevel;

/**
 * Everything about one operation that does not change between calls, resolved once: its
 * snake_case name, meter names, help texts, buckets and label keys.
 *
 * @param operation the operation name in snake_case, such as {@code apply_packing}
 * @param baseName dotted meter name without suffix, such as
 * {@code karpenter.allocation_controller.bind}
 * @param durationDescription HELP text of the duration histogram
 * @param inFlightDescription HELP text of the in-flight gauge
 * @param buckets the operation's own bucket boundaries, empty for the shared default
 * @param labelKeys label keys every series of this operation carries, besides
 * {@code result} and {@code error}
 * @param familyName Prometheus name of the duration histogram, such as
 * {@code karpenter_allocation_controller_bind_duration_seconds}, which label allow-lists
 * and limits are keyed by
 * @param stability the declared stability level, or {@code null} when none is declared
 */
public record OperationDescriptor(String operation, String baseName, String durationDescription,
		String inFlightDescription, List<Duration> buckets, List<String> labelKeys, String familyName,
		@Nullable StabilityLevel stability) {

	/**
	 * The duration histogram's bucket boundaries in seconds.
	 * @param defaultBuckets the shared boundaries in seconds, for an operation without
	 * its own
	 * @return the operation's own boundaries, else the shared ones
	 */
	public List<Double> bucketSeconds(List<Double> defaultBuckets) {
		return this.buckets.isEmpty() ? defaultBuckets
				: this.buckets.stream().map((bucket) -> bucket.toNanos() / 1e9).toList();
	}

	/**
	 * Dotted name of the duration meter ({@code <namespace>_..._duration_seconds} in
	 * Prometheus).
	 * @return the meter name
	 */
	public String durationName() {
		return this.baseName + "." + MetricConventions.DURATION_SUFFIX;
	}

	/**
	 * Prometheus name of the in-flight gauge, such as
	 * {@code karpenter_allocation_controller_bind_in_flight}.
	 * @return the family name
	 */
	public String inFlightFamilyName() {
		return this.baseName.replace('.', '_') + "_" + MetricConventions.IN_FLIGHT_SUFFIX;
	}

	/**
	 * Dotted name of the in-flight gauge ({@code <namespace>_..._in_flight} in
	 * Prometheus).
	 * @return the meter name
	 */
	public String inFlightName() {
		return this.baseName + "." + MetricConventions.IN_FLIGHT_SUFFIX;
	}

}
