package dev.controllerobservability.internal.operations;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * One asynchronous operation call, such as one subscription to a {@code Mono} or one
 * {@link CompletionStage}: started by {@link OperationRecorder#startAsync}, in flight
 * until it ends with success, an error or cancellation, and recorded once, however many
 * of those signals arrive and from whichever threads.
 * <p>
 * On the direct path it holds the call's series and start time; otherwise the started
 * observation, whose meter handler records it and which tracing sees as one span. Ending
 * never throws: failures go to the recorder's {@code RecordingFailures}.
 */
public final class AsyncOperation {

	private final OperationRecorder recorder;

	private final OperationResolver.Resolved call;

	private final OperationRecorder.@Nullable Series series;

	private final long start;

	private final @Nullable Observation observation;

	private final AtomicBoolean ended = new AtomicBoolean();

	AsyncOperation(OperationRecorder recorder, OperationResolver.Resolved call,
			OperationRecorder.@Nullable Series series, long start, @Nullable Observation observation) {
		this.recorder = recorder;
		this.call = call;
		this.series = series;
		this.start = start;
		this.observation = observation;
	}

	/**
	 * The call's observation, for work that runs under it.
	 * @return the observation, or {@code null} when the call is recorded directly or not
	 * at all
	 */
	public @Nullable Observation observation() {
		return this.observation;
	}

	/**
	 * Makes the call's observation current on this thread, while the work is started.
	 * @return the scope to close, or {@code null} without an observation
	 */
	public Observation.@Nullable Scope openScope() {
		return (this.observation != null) ? this.recorder.openScope(this.observation) : null;
	}

	/**
	 * Closes a scope {@link #openScope()} opened.
	 * @param scope the scope, or {@code null}
	 */
	public void closeScope(Observation.@Nullable Scope scope) {
		if (scope == null) {
			return;
		}
		try {
			scope.close();
		}
		catch (Throwable ex) {
			this.recorder.failures().recordUnlessFatal("scope of an operation", ex);
		}
	}

	/** Ends the call as a success. */
	public void succeed() {
		end(null, false);
	}

	/**
	 * Ends the call as failed.
	 * @param error what the work failed with
	 */
	public void fail(Throwable error) {
		end(error, false);
	}

	/** Ends the call as cancelled. */
	public void cancel() {
		end(null, true);
	}

	/**
	 * Ends the call when {@code stage} completes: as a success, as cancelled for a
	 * {@link CancellationException}, or as failed with the cause of a
	 * {@link CompletionException} or the exception itself.
	 * @param stage the work's stage; {@code null} ends the call as failed with a
	 * {@link NullPointerException}
	 */
	public void endWhenComplete(@Nullable CompletionStage<?> stage) {
		if (stage == null) {
			fail(new NullPointerException(
					"operation " + operationName() + " returned null instead of a CompletionStage"));
			return;
		}
		try {
			stage.whenComplete((value, failure) -> complete(failure));
		}
		catch (Throwable ex) {
			this.recorder.failures().recordUnlessFatal("completion of operation " + operationName(), ex);
			fail(ex);
		}
	}

	private void complete(@Nullable Throwable failure) {
		if (failure == null) {
			succeed();
			return;
		}
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof CancellationException) {
			cancel();
		}
		else {
			fail(cause);
		}
	}

	private void end(@Nullable Throwable error, boolean cancelled) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		try {
			if (this.series != null) {
				this.recorder.stop(this.call, this.series, this.start, error, cancelled);
			}
			else if (this.observation != null) {
				if (cancelled && this.observation.getContextView() instanceof OperationRecorder.Context context) {
					context.cancel();
				}
				if (error != null) {
					this.recorder.signalError(this.observation, error);
				}
				this.recorder.stopObservation(this.observation, null);
			}
		}
		catch (Throwable ex) {
			this.recorder.failures().recordUnlessFatal("end of operation " + operationName(), ex);
		}
	}

	private String operationName() {
		return (this.call.descriptor != null) ? this.call.descriptor.operation() : "(unrecorded)";
	}

}
