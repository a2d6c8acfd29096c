package dev.controllerobservability.operations;

import io.micrometer.core.instrument.Tag;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The annotation's use of Reactor, kept in a class of its own:
 * {@link ObservedOperationAspect} loads it only when Reactor is on the class path, so
 * that applications without Reactor need none.
 */
final class ReactorPublishers {

	private ReactorPublishers() {
	}

	/** Whether a method returning {@code type} returns a {@code Mono} or {@code Flux}. */
	static boolean isPublisher(Class<?> type) {
		return Mono.class.isAssignableFrom(type) || Flux.class.isAssignableFrom(type);
	}

	/** Times each subscription to a {@code Mono} or {@code Flux}. */
	static Object observe(ReactiveOperations reactive, String operation, Iterable<Tag> tags, Object publisher) {
		if (publisher instanceof Mono<?> mono) {
			return reactive.observe(operation, tags, mono);
		}
		return reactive.observe(operation, tags, (Flux<?>) publisher);
	}

}
