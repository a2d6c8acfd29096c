package dev.controllerobservability.autoconfigure.kubernetes;

import java.util.Collection;
import java.util.Map;
import java.util.function.Supplier;

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
	 * @param metrics where to declare the webhooks
	 * @param handlers the handler methods of the stack's mappings, with their paths
	 */
	ObservedWebhookHandlers(WebhookMetrics metrics, Supplier<Map<HandlerMethod, Collection<String>>> handlers) {
		this.metrics = metrics;
		this.handlers = handlers;
	}

	@Override
	public void afterSingletonsInstantiated() {
		WebhookObservation.declare(this.metrics, this.handlers.get());
	}

}
