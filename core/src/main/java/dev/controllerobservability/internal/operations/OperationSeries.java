package dev.controllerobservability.internal.operations;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.controllerobservability.internal.metrics.MetricConventions;

/**
 * The meters of one operation for one set of label values: the in-flight gauge and a
 * duration timer per outcome ({@code result="success",error="none"} and one per error
 * type). Meters are registered on first use and then reached without a lookup.
 */
public final class OperationSeries {

	private final MeterRegistry registry;

	private final OperationDescriptor descriptor;

	private final Tags labels;

	private final Duration[] buckets;

	private final AtomicLong inFlight = new AtomicLong();

	private volatile Timer success;

	private final Map<Class<?>, Timer> failures = new ConcurrentHashMap<>();

	OperationSeries(MeterRegistry registry, OperationDescriptor descriptor, Tags labels, Duration[] buckets) {
		this.registry = registry;
		this.descriptor = descriptor;
		this.labels = labels;
		this.buckets = buckets;
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
	 * The duration timer of an outcome.
	 * @param error what the operation threw, or {@code null} when it succeeded
	 * @return its timer
	 */
	public Timer timer(Throwable error) {
		if (error == null) {
			Timer timer = this.success;
			if (timer == null) {
				timer = register(MetricConventions.SUCCESS, MetricConventions.NONE);
				this.success = timer;
			}
			return timer;
		}
		Timer timer = this.failures.get(error.getClass());
		return (timer != null) ? timer : this.failures.computeIfAbsent(error.getClass(),
				(type) -> register(MetricConventions.ERROR, OperationContext.errorLabel(error)));
	}

	private Timer register(String result, String errorLabel) {
		Timer.Builder builder = Timer.builder(this.descriptor.durationName())
			.description(this.descriptor.durationDescription())
			.tags(this.labels)
			.tag(MetricConventions.RESULT_LABEL, result)
			.tag(MetricConventions.ERROR_LABEL, errorLabel);
		if (this.buckets.length > 0) {
			builder.serviceLevelObjectives(this.buckets);
		}
		return builder.register(this.registry);
	}

}
