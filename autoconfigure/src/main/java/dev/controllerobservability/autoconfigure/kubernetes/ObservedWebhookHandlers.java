package dev.controllerobservability.autoconfigure.kubernetes;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.web.method.HandlerMethod;

import dev.controllerobservability.kubernetes.webhook.WebhookMetrics;

/**
 * Declares the handler methods annotated with {@code @ObservedWebhook} once every handler
 * mapping knows its handlers, before the server takes requests.
 */
final class ObservedWebhookHandlers implements SmartInitializingSingleton {

	private final WebhookMetrics metrics;

	private final Supplier<Map<HandlerMethod, Collection<String>>> handlers;

	/**
	 * Creates the declaration.
	 * @param <I> the stack's request mapping info type
	 * @param metrics where to declare the webhooks
	 * @param mappings the handler methods of each of the stack's request mappings
	 * @param paths the paths of a request mapping info
	 */
	<I> ObservedWebhookHandlers(WebhookMetrics metrics, Supplier<Stream<Map<I, HandlerMethod>>> mappings,
			Function<I, Collection<String>> paths) {
		this.metrics = metrics;
		this.handlers = () -> {
			Map<HandlerMethod, Collection<String>> handlers = new LinkedHashMap<>();
			mappings.get()
				.forEach((mapping) -> mapping.forEach((info, handler) -> handlers.put(handler, paths.apply(info))));
			return handlers;
		};
	}

	@Override
	public void afterSingletonsInstantiated() {
		WebhookObservation.declare(this.metrics, this.handlers.get());
	}

}
