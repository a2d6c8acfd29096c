package dev.controllerobservability.operations;

import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.operations.AsyncOperation;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.internal.operations.OperationResolver;

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

	private final OperationResolver.Resolved call;

	private final OperationRecorder recorder;

	OperationHandle(OperationResolver.Resolved call, OperationRecorder recorder) {
		this.call = call;
		this.recorder = recorder;
	}

	/**
	 * Whether calls through this handle are recorded.
	 * @return {@code false} for an operation that cannot be recorded: its name is
	 * {@code null} or invalid, or too many operations are recorded already
	 */
	public boolean isRecorded() {
		return this.call.isRecorded();
	}

	/**
	 * Times {@code work}.
	 * @param <T> the result type
	 * @param work the work to time
	 * @return what {@code work} returned
	 */
	public <T> T observe(Supplier<T> work) {
		return this.recorder.observe(this.call, work);
	}

	/**
	 * Times {@code work}.
	 * @param work the work to time
	 */
	public void observe(Runnable work) {
		this.recorder.observe(this.call, work);
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
		return this.recorder.observeChecked(this.call, work);
	}

	/**
	 * Times asynchronous work, from this call until the stage it returns completes, as
	 * {@link ControllerOperations#observeAsync} does.
	 * @param <S> the stage type, such as {@code CompletableFuture<Node>}
	 * @param work starts the asynchronous work and returns its stage
	 * @return the stage {@code work} returned
	 */
	public <S extends CompletionStage<?>> S observeAsync(Supplier<S> work) {
		return this.recorder.observeAsync(this.call, work::get);
	}

	/** Starts one asynchronous call, such as one subscription. */
	AsyncOperation startAsync(@Nullable Observation parent) {
		return this.recorder.startAsync(this.call, parent);
	}

	/**
	 * The label values this handle records with, after cardinality limits.
	 * @return every label key of the operation with its value
	 */
	public Tags labels() {
		return this.call.labels();
	}

}
