package dev.controllerobservability.internal.operations;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;

import dev.controllerobservability.operations.OperationDescriptor;

/**
 * The operation meters of one registry, by operation and label values, shared by the
 * observation handler and the direct recording path so that both record into the same
 * series.
 */
public final class OperationSeriesCache {

	private final MeterRegistry registry;

	private final OperationDurations durations;

	private final @Nullable CardinalityLimiter limiter;

	private final Map<String, Map<Tags, OperationSeries>> operations = new ConcurrentHashMap<>();

	/**
	 * Creates an empty cache.
	 * @param registry where the in-flight gauges are registered, whose clock times
	 * operations
	 * @param durations where the durations are recorded
	 * @param limiter the limits the {@code error} label and the label sets of outcomes
	 * pass, or {@code null} for none
	 */
	public OperationSeriesCache(MeterRegistry registry, OperationDurations durations,
			@Nullable CardinalityLimiter limiter) {
		this.registry = registry;
		this.durations = durations;
		this.limiter = limiter;
	}

	/**
	 * Where the durations are recorded.
	 * @return the durations backend
	 */
	public OperationDurations durations() {
		return this.durations;
	}

	/**
	 * The registry's clock, which times operations.
	 * @return the clock
	 */
	public Clock clock() {
		return this.registry.config().clock();
	}

	/**
	 * The series of an operation for resolved label values, registered on first use.
	 * @param descriptor the operation
	 * @param labels every label key of the operation with its value
	 * @return the series
	 */
	public OperationSeries series(OperationDescriptor descriptor, Tags labels) {
		Map<Tags, OperationSeries> series = this.operations.get(descriptor.baseName());
		if (series == null) {
			series = this.operations.computeIfAbsent(descriptor.baseName(), (name) -> new ConcurrentHashMap<>());
		}
		OperationSeries existing = series.get(labels);
		return (existing != null) ? existing : series.computeIfAbsent(labels,
				(key) -> new OperationSeries(this.registry, this.durations, descriptor, key, this.limiter));
	}

}
