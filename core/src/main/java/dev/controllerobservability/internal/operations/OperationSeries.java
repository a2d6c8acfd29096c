package dev.controllerobservability.internal.operations;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * The meters of one operation for one set of label values: the in-flight gauge and a
 * duration series per outcome ({@code result="success",error="none"} and one per error
 * type). Series are registered on first use and then reached without a lookup.
 */
public final class OperationSeries {

	private final OperationDurations durations;

	private final OperationDescriptor descriptor;

	private final Tags labels;

	private final AtomicLong inFlight = new AtomicLong();

	private volatile OperationDurations.Recorder success;

	private final Map<Class<?>, OperationDurations.Recorder> failures = new ConcurrentHashMap<>();

	OperationSeries(MeterRegistry registry, OperationDurations durations, OperationDescriptor descriptor, Tags labels) {
		this.durations = durations;
		this.descriptor = descriptor;
		this.labels = labels;
		Gauge.builder(descriptor.inFlightName(), this.inFlight, AtomicLong::get)
			.description(descriptor.inFlightDescription())
			.tags(labels)
			.strongReference(true)
			.register(registry);
	}

	public AtomicLong inFlight() {
		return this.inFlight;
	}

	/**
	 * Records the duration of one call.
	 * @param error what the operation threw, or {@code null} when it succeeded
	 * @param nanos how long it took, in nanoseconds
	 */
	public void record(Throwable error, long nanos) {
		recorder(error).record(nanos);
	}

	private OperationDurations.Recorder recorder(Throwable error) {
		if (error == null) {
			OperationDurations.Recorder recorder = this.success;
			if (recorder == null) {
				recorder = this.durations.register(this.descriptor, this.labels, MetricConventions.SUCCESS,
						MetricConventions.NONE);
				this.success = recorder;
			}
			return recorder;
		}
		OperationDurations.Recorder recorder = this.failures.get(error.getClass());
		return (recorder != null) ? recorder : this.failures.computeIfAbsent(error.getClass(), (type) -> this.durations
			.register(this.descriptor, this.labels, MetricConventions.ERROR, OperationContext.errorLabel(error)));
	}

}
