package dev.controllerobservability.internal.operations;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * Operation durations as Micrometer timers: the default.
 */
final class MicrometerDurations implements OperationDurations {

	private final MeterRegistry registry;

	MicrometerDurations(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public Recorder register(OperationDescriptor descriptor, Tags labels, String result, String error) {
		Timer.Builder builder = Timer.builder(descriptor.durationName())
			.description(descriptor.durationDescription())
			.tags(labels)
			.tag(MetricConventions.RESULT_LABEL, result)
			.tag(MetricConventions.ERROR_LABEL, error);
		if (!descriptor.buckets().isEmpty()) {
			builder.serviceLevelObjectives(descriptor.buckets().toArray(Duration[]::new));
		}
		Timer timer = builder.register(this.registry);
		return (nanos) -> timer.record(nanos, TimeUnit.NANOSECONDS);
	}

	@Override
	public boolean exposesMax(OperationDescriptor descriptor) {
		return true;
	}

}
