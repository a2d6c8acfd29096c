package dev.controllerobservability.operations;

import java.util.Objects;
import java.util.function.Function;

import io.micrometer.core.instrument.Tag;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import dev.controllerobservability.internal.operations.AsyncOperation;
import dev.controllerobservability.internal.operations.OperationResolver;

/**
 * Times Reactor publishers as operations, from subscription to termination:
 *
 * <pre>{@code
 * ReactiveOperations reactive = ReactiveOperations.of(operations);
 * Mono<Node> node = reactive.observe("launch", Tags.of("provisioner", "gpu"), cloud.launch(request));
 * }</pre> Each subscription is one call: subscribing twice, or a {@code retry()} or
 * {@code repeat()} downstream, records one call per subscription, while a {@code retry()}
 * inside the observed publisher is part of its one call. A {@code Mono} ends with its
 * value, its completion or its error; a {@code Flux} is one call from subscription to its
 * completion or error, never one per element (observe each element's work as a
 * {@code Mono} inside {@code concatMap} for that). A subscription cancelled before it
 * ended is recorded as {@code result="cancelled"}.
 * <p>
 * With tracing, the call's observation is the parent of observations upstream: it is put
 * in the Reactor context under Micrometer's observation key, and its own parent is the
 * observation found there at subscription, or the current one. Recording never changes
 * the publisher's signals: a failing registry is counted in
 * {@code <namespace>_observability_errors_total}.
 * <p>
 * It needs Reactor ({@code reactor-core}) on the class path; nothing else in the starter
 * does.
 */
public final class ReactiveOperations {

	/**
	 * The Reactor context key of the current observation: Micrometer's
	 * {@code ObservationThreadLocalAccessor.KEY}, which Spring's reactive instrumentation
	 * reads and writes.
	 */
	public static final String OBSERVATION_KEY = "micrometer.observation";

	private final ControllerOperations operations;

	private ReactiveOperations(ControllerOperations operations) {
		this.operations = Objects.requireNonNull(operations, "operations");
	}

	/**
	 * Reactive forms of {@code operations}, recording into the same series.
	 * @param operations the operations
	 * @return the reactive forms
	 */
	public static ReactiveOperations of(ControllerOperations operations) {
		return new ReactiveOperations(operations);
	}

	/**
	 * Times each subscription to {@code work} as {@code operation}.
	 * @param <T> the value type
	 * @param operation operation name such as {@code launch}
	 * @param tags label values, keys from the configured operation labels
	 * @param work the publisher to time
	 * @return a {@code Mono} with the same signals as {@code work}
	 * @throws NullPointerException if {@code work} is {@code null}, as Reactor's
	 * operators do
	 */
	public <T> Mono<T> observe(String operation, Iterable<Tag> tags, Mono<T> work) {
		requirePublisher(work, operation);
		OperationResolver.Resolved call = this.operations.resolve(operation, tags);
		return (call != null) ? timed(work, (parent) -> this.operations.startAsync(call, parent)) : work;
	}

	/**
	 * Times each subscription to {@code work} as {@code operation}, from subscription to
	 * completion or error.
	 * @param <T> the element type
	 * @param operation operation name such as {@code list-nodes}
	 * @param tags label values, keys from the configured operation labels
	 * @param work the publisher to time
	 * @return a {@code Flux} with the same signals as {@code work}
	 * @throws NullPointerException if {@code work} is {@code null}, as Reactor's
	 * operators do
	 */
	public <T> Flux<T> observe(String operation, Iterable<Tag> tags, Flux<T> work) {
		requirePublisher(work, operation);
		OperationResolver.Resolved call = this.operations.resolve(operation, tags);
		return (call != null) ? timed(work, (parent) -> this.operations.startAsync(call, parent)) : work;
	}

	/**
	 * Times each subscription to {@code work} with a handle's resolved labels.
	 * @param <T> the value type
	 * @param handle from {@link ControllerOperations#bind}
	 * @param work the publisher to time
	 * @return a {@code Mono} with the same signals as {@code work}
	 * @throws NullPointerException if {@code handle} or {@code work} is {@code null}
	 */
	public <T> Mono<T> observe(OperationHandle handle, Mono<T> work) {
		Objects.requireNonNull(handle, "handle is null: pass the handle ControllerOperations.bind(...) returned");
		requirePublisher(work, "of the handle");
		return timed(work, handle::startAsync);
	}

	/**
	 * Times each subscription to {@code work} with a handle's resolved labels, from
	 * subscription to completion or error.
	 * @param <T> the element type
	 * @param handle from {@link ControllerOperations#bind}
	 * @param work the publisher to time
	 * @return a {@code Flux} with the same signals as {@code work}
	 * @throws NullPointerException if {@code handle} or {@code work} is {@code null}
	 */
	public <T> Flux<T> observe(OperationHandle handle, Flux<T> work) {
		Objects.requireNonNull(handle, "handle is null: pass the handle ControllerOperations.bind(...) returned");
		requirePublisher(work, "of the handle");
		return timed(work, handle::startAsync);
	}

	private <T> Mono<T> timed(Mono<T> work, Function<@Nullable Observation, AsyncOperation> start) {
		return Mono.deferContextual((context) -> {
			AsyncOperation call = start(start, context);
			if (call == null) {
				return work;
			}
			// doOnSuccess sees the value, or the completion of an empty Mono, before the
			// subscriber does: the call has ended when the subscriber has its result.
			Mono<T> timed = work.doOnSuccess((value) -> call.succeed()).doOnError(call::fail).doOnCancel(call::cancel);
			Observation observation = call.observation();
			return (observation != null) ? timed.contextWrite(Context.of(OBSERVATION_KEY, observation)) : timed;
		});
	}

	private <T> Flux<T> timed(Flux<T> work, Function<@Nullable Observation, AsyncOperation> start) {
		return Flux.deferContextual((context) -> {
			AsyncOperation call = start(start, context);
			if (call == null) {
				return work;
			}
			Flux<T> timed = work.doOnComplete(call::succeed).doOnError(call::fail).doOnCancel(call::cancel);
			Observation observation = call.observation();
			return (observation != null) ? timed.contextWrite(Context.of(OBSERVATION_KEY, observation)) : timed;
		});
	}

	/**
	 * Refuses a {@code null} publisher when it is given, before any call is in flight.
	 */
	private static void requirePublisher(@Nullable Object work, @Nullable String operation) {
		if (work == null) {
			throw new NullPointerException(
					"work is null: pass the Mono or Flux to time as operation " + operation + ", not null");
		}
	}

	/**
	 * Starts one subscription's call; {@code null}, the subscription then unrecorded,
	 * only when something failed that should never fail, recorded already.
	 */
	private @Nullable AsyncOperation start(Function<@Nullable Observation, AsyncOperation> start, ContextView context) {
		try {
			return start.apply(parent(context));
		}
		catch (Throwable ex) {
			this.operations.failures().recordUnlessFatal("subscription of an operation", ex);
			return null;
		}
	}

	private static @Nullable Observation parent(ContextView context) {
		return (context.getOrDefault(OBSERVATION_KEY, null) instanceof Observation observation) ? observation : null;
	}

}
