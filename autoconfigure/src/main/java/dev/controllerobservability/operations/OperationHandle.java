package dev.controllerobservability.operations;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;

import dev.controllerobservability.metrics.RecordingFailures;

/**
 * An operation with its label values resolved once, for hot paths:
 * <pre>{@code
 * OperationHandle bind = operations.bind("bind", Tags.of("provisioner", "gpu"));
 * ...
 * bind.observe(() -> binder.bind(pod, node));
 * }</pre>
 * When operations are recorded directly (no tracing or other observation handler is
 * registered; see {@link ControllerOperations}), a call allocates nothing: it reads the
 * clock twice, moves the in-flight gauge and records into a timer it already holds.
 * Otherwise it goes through the Observation API as
 * {@link ControllerOperations#observe(String, Iterable, Supplier)} does. Either way the
 * work's result and exception are never changed, and recording never throws.
 */
public final class OperationHandle {

	private final ControllerOperations operations;

	private final OperationDescriptor descriptor;

	private final Tags labels;

	private final OperationSeries series;

	private final Clock clock;

	private final RecordingFailures failures;

	OperationHandle(ControllerOperations operations, OperationDescriptor descriptor, Tags labels,
			OperationSeries series, Clock clock, RecordingFailures failures) {
		this.operations = operations;
		this.descriptor = descriptor;
		this.labels = labels;
		this.series = series;
		this.clock = clock;
		this.failures = failures;
	}

	/**
	 * Times {@code work}.
	 * @param <T> the result type
	 * @param work the work to time
	 * @return what {@code work} returned
	 */
	public <T> T observe(Supplier<T> work) {
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

	private long start() {
		try {
			this.series.inFlight().incrementAndGet();
		}
		catch (Throwable ex) {
			handle(ex);
		}
		return this.clock.monotonicTime();
	}

	private void stop(long start, Throwable error) {
		try {
			long duration = this.clock.monotonicTime() - start;
			this.series.inFlight().decrementAndGet();
			this.series.timer(error).record(duration, TimeUnit.NANOSECONDS);
		}
		catch (Throwable ex) {
			handle(ex);
		}
	}

	private void handle(Throwable ex) {
		if (RecordingFailures.isFatal(ex)) {
			throw (VirtualMachineError) ex;
		}
		this.failures.record("recording of operation " + this.descriptor.operation(), ex);
	}

}
