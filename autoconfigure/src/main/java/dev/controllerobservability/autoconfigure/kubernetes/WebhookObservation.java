package dev.controllerobservability.autoconfigure.kubernetes;

import java.util.Collection;
import java.util.Map;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;

import dev.controllerobservability.kubernetes.webhook.ObservedWebhook;
import dev.controllerobservability.kubernetes.webhook.WebhookMetrics;

/**
 * What the servlet and the reactive webhook filters share: their order, and declaring the
 * handler methods annotated with {@link ObservedWebhook} under their mapping paths.
 */
final class WebhookObservation {

	/**
	 * Right after Spring's own observation filter, so that the latency spans the other
	 * filters and an exception from them is seen.
	 */
	static final int FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 2;

	private WebhookObservation() {
	}

	/**
	 * Declares every annotated handler method's paths.
	 * @param metrics where to declare them
	 * @param handlers the handler methods with their mapping paths
	 * @throws IllegalStateException naming the method if a path cannot be a webhook's
	 */
	static void declare(WebhookMetrics metrics, Map<HandlerMethod, Collection<String>> handlers) {
		handlers.forEach((handler, paths) -> {
			ObservedWebhook annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(),
					ObservedWebhook.class);
			if (annotation == null) {
				annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), ObservedWebhook.class);
			}
			if (annotation == null) {
				return;
			}
			if (paths.isEmpty()) {
				throw new IllegalStateException("@ObservedWebhook on " + handler.getShortLogMessage()
						+ ": the handler maps no path, and its path is the webhook label. Map it to the path the "
						+ "webhook configuration names, such as @PostMapping(\"/validate-widgets\")");
			}
			for (String path : paths) {
				try {
					metrics.declare(path, annotation.value());
				}
				catch (IllegalArgumentException ex) {
					throw new IllegalStateException("@ObservedWebhook on " + handler.getShortLogMessage() + ": "
							+ ex.getMessage() + ". Map the handler to one literal path, and declare it with one type "
							+ "in @ObservedWebhook and in controller.observability.kubernetes.webhooks.*", ex);
				}
			}
		});
	}

}
