package dev.controllerobservability.operations;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;

import dev.controllerobservability.metrics.MetricConventions;
import dev.controllerobservability.metrics.RecordingFailures;

/**
 * Records operation observations as a duration histogram
 * ({@code <namespace>[_<subsystem>]_<operation>_duration_seconds} with the operation's
 * labels plus {@code result} and {@code error}) and an in-flight gauge
 * ({@code <...>_in_flight}).
 * <p>
 * Ordered ahead of Micrometer's {@code DefaultMeterObservationHandler}, it replaces
 * that handler for {@link OperationContext}s only: no duplicate timer and no
 * {@code .active} long task timer. It never throws; failures go to
 * {@link RecordingFailures}.
 */
public final class OperationMeterObservationHandler implements MeterObservationHandler<OperationContext> {

	private final MeterRegistry registry;

	private final RecordingFailures failures;

	private final ConcurrentMap<String, OperationMeters> meters = new ConcurrentHashMap<>();

	/**
	 * Creates a handler.
	 * @param registry where the meters go
	 * @param failures where recording failures go
	 */
	public OperationMeterObservationHandler(MeterRegistry registry, RecordingFailures failures) {
		this.registry = registry;
		this.failures = failures;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof OperationContext;
	}

	@Override
	public void onStart(OperationContext context) {
		try {
			context.setStartNanos(this.registry.config().clock().monotonicTime());
			context.started(this);
			AtomicLong inFlight = metersFor(context.getDescriptor()).inFlight(context.getLabels());
			inFlight.incrementAndGet();
			context.setInFlight(inFlight);
		}
		catch (Throwable ex) {
			handle("start of " + context.getDescriptor().operation(), ex);
		}
	}

	@Override
	public void onStop(OperationContext context) {
		if (!context.stop()) {
			return;
		}
		try {
			long duration = this.registry.config().clock().monotonicTime() - context.getStartNanos();
			AtomicLong inFlight = context.getInFlight();
			if (inFlight != null) {
				inFlight.decrementAndGet();
			}
			metersFor(context.getDescriptor())
				.timer(context.getLabels().and(MetricConventions.RESULT_LABEL, context.getResult(),
						MetricConventions.ERROR_LABEL, context.getErrorLabel()))
				.record(duration, TimeUnit.NANOSECONDS);
		}
		catch (Throwable ex) {
			handle("duration of " + context.getDescriptor().operation(), ex);
		}
	}

	private void handle(String action, Throwable ex) {
		if (RecordingFailures.isFatal(ex)) {
			throw (VirtualMachineError) ex;
		}
		this.failures.record(action, ex);
	}

	private OperationMeters metersFor(OperationDescriptor descriptor) {
		OperationMeters existing = this.meters.get(descriptor.baseName());
		return (existing != null) ? existing
				: this.meters.computeIfAbsent(descriptor.baseName(), (name) -> new OperationMeters(descriptor));
	}

	/** The meters of one operation, cached per label set. */
	private final class OperationMeters {

		private final OperationDescriptor descriptor;

		private final String durationName;

		private final String inFlightName;

		private final Duration[] buckets;

		private final ConcurrentMap<Tags, AtomicLong> inFlight = new ConcurrentHashMap<>();

		private final ConcurrentMap<Tags, Timer> timers = new ConcurrentHashMap<>();

		OperationMeters(OperationDescriptor descriptor) {
			this.descriptor = descriptor;
			this.durationName = descriptor.durationName();
			this.inFlightName = descriptor.inFlightName();
			this.buckets = descriptor.buckets().toArray(Duration[]::new);
		}

		AtomicLong inFlight(Tags labels) {
			AtomicLong existing = this.inFlight.get(labels);
			return (existing != null) ? existing : this.inFlight.computeIfAbsent(labels, this::registerInFlight);
		}

		Timer timer(Tags tags) {
			Timer existing = this.timers.get(tags);
			return (existing != null) ? existing : this.timers.computeIfAbsent(tags, this::registerTimer);
		}

		private AtomicLong registerInFlight(Tags labels) {
			AtomicLong value = new AtomicLong();
			Gauge.builder(this.inFlightName, value, AtomicLong::get)
				.description(this.descriptor.inFlightDescription())
				.tags(labels)
				.strongReference(true)
				.register(OperationMeterObservationHandler.this.registry);
			return value;
		}

		private Timer registerTimer(Tags tags) {
			Timer.Builder builder = Timer.builder(this.durationName)
				.description(this.descriptor.durationDescription())
				.tags(tags);
			if (this.buckets.length > 0) {
				builder.serviceLevelObjectives(this.buckets);
			}
			return builder.register(OperationMeterObservationHandler.this.registry);
		}

	}

}
