package dev.controllerobservability.autoconfigure.kubernetes;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

import dev.controllerobservability.kubernetes.webhook.WebhookMetrics;

/**
 * Declares the Spring MVC handler methods annotated with {@code @ObservedWebhook} once
 * every handler mapping knows its handlers, before the server takes requests.
 */
final class ObservedWebhookServletHandlers implements SmartInitializingSingleton {

	private final WebhookMetrics metrics;

	private final ObjectProvider<RequestMappingInfoHandlerMapping> mappings;

	ObservedWebhookServletHandlers(WebhookMetrics metrics, ObjectProvider<RequestMappingInfoHandlerMapping> mappings) {
		this.metrics = metrics;
		this.mappings = mappings;
	}

	@Override
	public void afterSingletonsInstantiated() {
		Map<HandlerMethod, Collection<String>> handlers = new LinkedHashMap<>();
		this.mappings.orderedStream()
			.forEach((mapping) -> mapping.getHandlerMethods()
				.forEach((info, handler) -> handlers.put(handler, info.getPatternValues())));
		WebhookObservation.declare(this.metrics, handlers);
	}

}
