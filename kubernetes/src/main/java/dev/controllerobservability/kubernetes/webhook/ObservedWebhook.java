package dev.controllerobservability.kubernetes.webhook;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a web handler method (or every handler method of a class) as a webhook whose
 * requests {@link WebhookMetrics} records, labelled with the handler's request-mapping
 * path. The Spring Boot starter finds it on Spring MVC and WebFlux handler methods:
 *
 * <pre>{@code
 * &#64;PostMapping("/validate-widgets")
 *

&#64;ObservedWebhook(WebhookType.ADMISSION)
 * AdmissionReview validate(@RequestBody AdmissionReview review) { … }
 * }</pre>
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ObservedWebhook {

	/**
	 * What the webhook does, which decides the panic counter of its handler's exceptions.
	 * @return the type
	 */
	WebhookType value();

}
