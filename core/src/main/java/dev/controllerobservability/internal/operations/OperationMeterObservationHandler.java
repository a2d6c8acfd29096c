package dev.controllerobservability.internal.operations;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;

/**
 * Records operation observations as a duration histogram
 * ({@code <namespace>[_<subsystem>]_<operation>_duration_seconds} with the operation's
 * labels plus {@code result} and {@code error}) and an in-flight gauge
 * ({@code <...>_in_flight}).
 * <p>
 * Ordered ahead of Micrometer's {@code DefaultMeterObservationHandler}, it replaces that
 * handler for {@link OperationContext}s only: no duplicate timer and no {@code .active}
 * long task timer. It never throws; failures go to {@link RecordingFailures}.
 */
public final class OperationMeterObservationHandler implements MeterObservationHandler<OperationContext> {

	private final OperationSeriesCache series;

	private final Clock clock;

	private final RecordingFailures failures;

	/**
	 * Creates a handler that records durations as Micrometer timers.
	 * @param registry where the meters go
	 * @param failures where recording failures go
	 */
	public OperationMeterObservationHandler(MeterRegistry registry, RecordingFailures failures) {
		this(registry, OperationDurations.micrometer(registry), failures, null);
	}

	/**
	 * Creates a handler.
	 * @param registry where the in-flight gauges go, whose clock times operations
	 * @param durations where the durations go
	 * @param failures where recording failures go
	 * @param limiter the limits the {@code error} label and the label sets of outcomes
	 * pass, the same as the operations' own, or {@code null} for none
	 */
	public OperationMeterObservationHandler(MeterRegistry registry, OperationDurations durations,
			RecordingFailures failures, @Nullable CardinalityLimiter limiter) {
		this.series = new OperationSeriesCache(registry, durations, limiter);
		this.clock = registry.config().clock();
		this.failures = failures;
	}

	/**
	 * The meters this handler records into, for
	 * {@link dev.controllerobservability.operations.ControllerOperations}' direct path to
	 * record into the same series.
	 * @return the series cache
	 */
	public OperationSeriesCache seriesCache() {
		return this.series;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof OperationContext;
	}

	@Override
	public void onStart(OperationContext context) {
		try {
			context.setStartNanos(this.clock.monotonicTime());
		}
		catch (Throwable ex) {
			// Without a start time nothing can be recorded for this call.
			handle("start of " + context.getDescriptor().operation(), ex);
			return;
		}
		context.started(this);
		try {
			OperationSeries series = this.series.series(context.getDescriptor(), context.getLabels());
			series.inFlight().incrementAndGet();
			context.setSeries(series);
		}
		catch (Throwable ex) {
			handle("start of " + context.getDescriptor().operation(), ex);
		}
	}

	@Override
	public void onStop(OperationContext context) {
		if (!context.isStarted() || !context.stop()) {
			return;
		}
		OperationSeries series = context.getSeries();
		if (series != null) {
			// Lowered first: a failing clock or timer must not leave the call in flight.
			series.inFlight().decrementAndGet();
		}
		try {
			long duration = this.clock.monotonicTime() - context.getStartNanos();
			if (series == null) {
				series = this.series.series(context.getDescriptor(), context.getLabels());
			}
			series.record(context.getError(), duration);
		}
		catch (Throwable ex) {
			handle("duration of " + context.getDescriptor().operation(), ex);
		}
	}

	private void handle(String action, Throwable ex) {
		this.failures.recordUnlessFatal(action, ex);
	}

}
