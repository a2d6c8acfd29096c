package dev.controllerobservability.operations;

import java.util.function.Supplier;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.operations.OperationSeries;

/**
 * An operation with its label values resolved once, for hot paths:
 *
 * <pre>{@code
 * OperationHandle bind = operations.bind("bind", Tags.of("provisioner", "gpu"));
 * ...
 * bind.observe(() -> binder.bind(pod, node));
 * }</pre> When operations are recorded directly (no tracing or other observation handler
 * is registered; see {@link ControllerOperations}), a call allocates nothing: it reads
 * the clock twice, moves the in-flight gauge and records into a timer it already holds.
 * Otherwise it goes through the Observation API as
 * {@link ControllerOperations#observe(String, Iterable, Supplier)} does. Either way the
 * work's result and exception are never changed, and recording never throws.
 */
public final class OperationHandle {

	/** The start time of a call whose clock failed: nothing is recorded for it. */
	private static final long NOT_STARTED = Long.MIN_VALUE;

	private final ControllerOperations operations;

	private final OperationDescriptor descriptor;

	private final Tags labels;

	private final OperationSeries series;

	private final Clock clock;

	private final RecordingFailures failures;

	/** What an unrecorded handle records as the failure of each call. */
	private final @Nullable String unrecordedAction;

	private final @Nullable RuntimeException unrecordedBecause;

	OperationHandle(ControllerOperations operations, OperationDescriptor descriptor, Tags labels,
			OperationSeries series, Clock clock, RecordingFailures failures) {
		this(operations, descriptor, labels, series, clock, failures, null, null);
	}

	private OperationHandle(ControllerOperations operations, OperationDescriptor descriptor, Tags labels,
			OperationSeries series, Clock clock, RecordingFailures failures, @Nullable String unrecordedAction,
			@Nullable RuntimeException unrecordedBecause) {
		this.operations = operations;
		this.descriptor = descriptor;
		this.labels = labels;
		this.series = series;
		this.clock = clock;
		this.failures = failures;
		this.unrecordedAction = unrecordedAction;
		this.unrecordedBecause = unrecordedBecause;
	}

	/**
	 * A handle that runs work without recording it, for an operation that cannot be
	 * recorded: each call is counted as a recording failure, with the reason given.
	 */
	static OperationHandle unrecorded(RecordingFailures failures, String action, RuntimeException because) {
		return new OperationHandle(null, null, Tags.empty(), null, null, failures, action, because);
	}

	/**
	 * Whether calls through this handle are recorded.
	 * @return {@code false} for an operation that cannot be recorded: its name is
	 * {@code null} or invalid, or too many operations are recorded already
	 */
	public boolean isRecorded() {
		return this.operations != null;
	}

	boolean isDirect() {
		return this.series != null;
	}

	OperationDescriptor descriptor() {
		return this.descriptor;
	}

	/**
	 * Times {@code work}.
	 * @param <T> the result type
	 * @param work the work to time
	 * @return what {@code work} returned
	 */
	public <T> T observe(Supplier<T> work) {
		if (this.operations == null) {
			unrecordedCall();
			return work.get();
		}
		if (this.series == null) {
			return this.operations.observeResolved(this.descriptor, this.labels, work::get);
		}
		long start = start();
		T result;
		try {
			result = work.get();
		}
		catch (Throwable ex) {
			stop(start, ex);
			throw ex;
		}
		stop(start, null);
		return result;
	}

	/**
	 * Times {@code work}.
	 * @param work the work to time
	 */
	public void observe(Runnable work) {
		if (this.operations == null) {
			unrecordedCall();
			work.run();
			return;
		}
		if (this.series == null) {
			this.operations.observeResolved(this.descriptor, this.labels, () -> {
				work.run();
				return null;
			});
			return;
		}
		long start = start();
		try {
			work.run();
		}
		catch (Throwable ex) {
			stop(start, ex);
			throw ex;
		}
		stop(start, null);
	}

	/**
	 * Times work that may throw a checked exception, which is rethrown unchanged.
	 * @param <T> the result type
	 * @param <E> the checked exception type
	 * @param work the work to time
	 * @return what {@code work} returned
	 * @throws E what {@code work} threw
	 */
	public <T, E extends Throwable> T observeChecked(Observation.CheckedCallable<T, E> work) throws E {
		if (this.operations == null) {
			unrecordedCall();
			return work.call();
		}
		if (this.series == null) {
			return this.operations.observeResolved(this.descriptor, this.labels, work);
		}
		long start = start();
		T result;
		try {
			result = work.call();
		}
		catch (Throwable ex) {
			stop(start, ex);
			throw ex;
		}
		stop(start, null);
		return result;
	}

	/**
	 * The label values this handle records with, after cardinality limits.
	 * @return every label key of the operation with its value
	 */
	public Tags labels() {
		return this.labels;
	}

	private void unrecordedCall() {
		this.failures.recordUnlessFatal(this.unrecordedAction, this.unrecordedBecause);
	}

	private long start() {
		long start;
		try {
			start = this.clock.monotonicTime();
		}
		catch (Throwable ex) {
			handle(ex);
			return NOT_STARTED;
		}
		this.series.inFlight().incrementAndGet();
		return start;
	}

	private void stop(long start, Throwable error) {
		if (start == NOT_STARTED) {
			return;
		}
		// Lowered first: a failing clock or timer must not leave the call in flight.
		this.series.inFlight().decrementAndGet();
		try {
			long duration = this.clock.monotonicTime() - start;
			this.series.record(error, duration);
		}
		catch (Throwable ex) {
			handle(ex);
		}
	}

	private void handle(Throwable ex) {
		this.failures.recordUnlessFatal("recording of operation " + this.descriptor.operation(), ex);
	}

}
