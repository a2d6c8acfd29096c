package dev.controllerobservability.it.webflux;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.controllerobservability.internal.test.WebhookReviews;
import dev.controllerobservability.kubernetes.webhook.ObservedWebhook;
import dev.controllerobservability.kubernetes.webhook.WebhookType;

/**
 * An admission webhook declared with {@link ObservedWebhook} and a conversion webhook
 * declared in {@code application.yaml}, served by WebFlux. A review for the name
 * {@code panic} (or the API version {@code panic/v1}) makes the handler throw; one for
 * {@code block} waits for {@link #release}.
 */
@RestController
class WebhookHandlers {

	static final CountDownLatch blocked = new CountDownLatch(1);

	static final CountDownLatch release = new CountDownLatch(1);

	@PostMapping(path = "/validate", produces = MediaType.APPLICATION_JSON_VALUE)
	@ObservedWebhook(WebhookType.ADMISSION)
	Mono<String> validate(@RequestBody String body) {
		AdmissionReview review = Serialization.unmarshal(body, AdmissionReview.class);
		String name = review.getRequest().getName();
		if ("panic".equals(name)) {
			return Mono.error(new IllegalStateException("validator failed"));
		}
		if ("block".equals(name)) {
			return Mono.fromCallable(() -> {
				blocked.countDown();
				release.await(30, TimeUnit.SECONDS);
				return WebhookReviews.allow(review);
			}).subscribeOn(Schedulers.boundedElastic());
		}
		return Mono.just(WebhookReviews.allow(review));
	}

	@PostMapping(path = "/convert", produces = MediaType.APPLICATION_JSON_VALUE)
	String convert(@RequestBody String body) {
		ConversionReview review = Serialization.unmarshal(body, ConversionReview.class);
		if (review.getRequest().getDesiredAPIVersion().startsWith("panic/")) {
			throw new IllegalStateException("converter failed");
		}
		return WebhookReviews.converted(review);
	}

}
