package dev.controllerobservability.autoconfigure.kubernetes;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.controllerobservability.internal.kubernetes.WebhookFamilies;
import dev.controllerobservability.internal.test.WebhookReviews;
import dev.controllerobservability.kubernetes.webhook.ObservedWebhook;
import dev.controllerobservability.kubernetes.webhook.WebhookType;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * AdmissionReviews and ConversionReviews sent to a Spring MVC application: one webhook
 * declared with {@code @ObservedWebhook}, two with properties, read back from
 * {@code /actuator/prometheus}. An exception the application's exception handler answers
 * is counted under that answer's code, not as a panic.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.config.name=minimal-app",
				"controller.observability.kubernetes.webhooks.admission-paths=/mutate",
				"controller.observability.kubernetes.webhooks.conversion-paths=/convert" })
@AutoConfigureMetrics
class WebhookMvcIntegrationTests {

	static final CountDownLatch release = new CountDownLatch(1);

	static final CountDownLatch blocked = new CountDownLatch(1);

	@LocalServerPort
	private int port;

	@Autowired
	private PrometheusRegistry prometheusRegistry;

	private final HttpClient client = HttpClient.newHttpClient();

	@Test
	void countsAnsweredReviewsByCodeWithTheirLatencyOnTheAnnotatedHandler() throws Exception {
		PrometheusScrape before = scrape();
		assertThat(post("/validate", WebhookReviews.admission("allowed")).statusCode()).isEqualTo(200);
		assertThat(post("/validate", WebhookReviews.admission("allowed")).statusCode()).isEqualTo(200);
		PrometheusScrape scrape = scrape();
		assertThat(requests(scrape, "/validate", "200")).isEqualTo(requests(before, "/validate", "200") + 2);
		assertThat(requests(scrape, "/validate", "500")).isEqualTo(requests(before, "/validate", "500"));
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_count", Map.of("webhook", "/validate")))
			.isEqualTo(before.value("controller_runtime_webhook_latency_seconds_count", Map.of("webhook", "/validate"))
					+ 2);
		assertThat(scrape.samples("controller_runtime_webhook_latency_seconds_bucket")
			.stream()
			.filter((sample) -> sample.labels().get("webhook").equals("/validate"))
			.map((sample) -> sample.labels().get("le"))).containsExactly("1.0E-8", "1.0E-7", "1.0E-6", "1.0E-5",
					"1.0E-4", "0.001", "0.01", "0.1", "1.0", "10.0", "100.0", "1000.0", "+Inf");
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_bucket",
				Map.of("webhook", "/validate", "le", "+Inf")))
			.isEqualTo(
					scrape.value("controller_runtime_webhook_latency_seconds_count", Map.of("webhook", "/validate")));
		assertThat(scrape.value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/validate")))
			.isEqualTo(0.0);
		assertThat(latency("/validate").getNativeSchema()).isEqualTo(3);
		assertThat(latency("/validate").hasNativeHistogramData()).isTrue();
	}

	@Test
	void countsAnErrorCodeTheHandlerAnswersWithAndNoPanic() throws Exception {
		double panics = scrape().value("controller_runtime_webhook_panics_total", Map.of());
		double answered = scrape().value("controller_runtime_webhook_latency_seconds_count",
				Map.of("webhook", "/mutate"));
		assertThat(post("/mutate", "{}").statusCode()).isEqualTo(400);
		assertThat(post("/mutate", WebhookReviews.admission("refused")).statusCode()).isEqualTo(422);
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("controller_runtime_webhook_panics_total", Map.of())).isEqualTo(panics);
		assertThat(requests(scrape, "/mutate", "422")).isEqualTo(1.0);
		assertThat(requests(scrape, "/mutate", "400")).isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_count", Map.of("webhook", "/mutate")))
			.isEqualTo(answered + 2);
	}

	@Test
	void countsHandlersThatThrowAsPanicsOfTheirTypeAnsweredWith500() throws Exception {
		double admissionPanics = scrape().value("controller_runtime_webhook_panics_total", Map.of());
		double conversionPanics = scrape().value("controller_runtime_conversion_webhook_panics_total", Map.of());
		assertThat(post("/validate", WebhookReviews.admission("panic")).statusCode()).isEqualTo(500);
		assertThat(post("/convert", WebhookReviews.conversion("panic/v1")).statusCode()).isEqualTo(500);
		assertThat(post("/convert", WebhookReviews.conversion("example.com/v2")).statusCode()).isEqualTo(200);
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("controller_runtime_webhook_panics_total", Map.of())).isEqualTo(admissionPanics + 1);
		assertThat(scrape.value("controller_runtime_conversion_webhook_panics_total", Map.of()))
			.isEqualTo(conversionPanics + 1);
		assertThat(requests(scrape, "/convert", "500")).isEqualTo(1.0);
		assertThat(requests(scrape, "/convert", "200")).isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/convert")))
			.isEqualTo(0.0);
	}

	@Test
	void countsARequestInFlightWhileItsHandlerRuns() throws Exception {
		CompletableFuture<HttpResponse<String>> response = this.client
			.sendAsync(request("/mutate", WebhookReviews.admission("block")), HttpResponse.BodyHandlers.ofString());
		assertThat(blocked.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(scrape().value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/mutate")))
			.isEqualTo(1.0);
		release.countDown();
		assertThat(response.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(
					scrape().value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/mutate")))
				.isEqualTo(0.0));
	}

	@Test
	void leavesOtherPathsUnrecorded() throws Exception {
		assertThat(post("/unrelated", "{}").statusCode()).isEqualTo(200);
		assertThat(scrape().samples("controller_runtime_webhook_requests_total")
			.stream()
			.map((sample) -> sample.labels().get("webhook"))
			.distinct()).containsExactlyInAnyOrder("/validate", "/mutate", "/convert");
	}

	private HistogramSnapshot.HistogramDataPointSnapshot latency(String webhook) {
		return this.prometheusRegistry.scrape()
			.stream()
			.filter((snapshot) -> snapshot.getMetadata().getPrometheusName().equals(WebhookFamilies.LATENCY))
			.flatMap((snapshot) -> ((HistogramSnapshot) snapshot).getDataPoints().stream())
			.filter((series) -> webhook.equals(series.getLabels().get("webhook")))
			.findFirst()
			.orElseThrow();
	}

	private static double requests(PrometheusScrape scrape, String webhook, String code) {
		return scrape.value("controller_runtime_webhook_requests_total", Map.of("webhook", webhook, "code", code));
	}

	private HttpResponse<String> post(String path, String body) throws Exception {
		return this.client.send(request(path, body), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path, String body) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
	}

	private PrometheusScrape scrape() throws Exception {
		return PrometheusScrape.fetch("http://localhost:" + this.port + "/actuator/prometheus");
	}

	/** Thrown by a handler and answered by the application's own exception handler. */
	static class RefusedException extends RuntimeException {

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@RestController
		static class Webhooks {

			@PostMapping(path = "/validate", produces = MediaType.APPLICATION_JSON_VALUE)
			@ObservedWebhook(WebhookType.ADMISSION)
			String validate(@RequestBody String body) {
				AdmissionReview review = Serialization.unmarshal(body, AdmissionReview.class);
				if ("panic".equals(review.getRequest().getName())) {
					throw new IllegalStateException("validator failed");
				}
				return WebhookReviews.allow(review);
			}

			@PostMapping(path = "/mutate", produces = MediaType.APPLICATION_JSON_VALUE)
			ResponseEntity<String> mutate(@RequestBody String body) throws InterruptedException {
				AdmissionReview review = Serialization.unmarshal(body, AdmissionReview.class);
				if (review.getRequest() == null) {
					return ResponseEntity.badRequest().body("{\"error\":\"no request\"}");
				}
				if ("refused".equals(review.getRequest().getName())) {
					throw new RefusedException();
				}
				if ("block".equals(review.getRequest().getName())) {
					blocked.countDown();
					release.await(30, TimeUnit.SECONDS);
				}
				return ResponseEntity.ok(WebhookReviews.allow(review));
			}

			@PostMapping(path = "/convert", produces = MediaType.APPLICATION_JSON_VALUE)
			String convert(@RequestBody String body) {
				ConversionReview review = Serialization.unmarshal(body, ConversionReview.class);
				if (review.getRequest().getDesiredAPIVersion().startsWith("panic/")) {
					throw new IllegalStateException("converter failed");
				}
				return WebhookReviews.converted(review);
			}

			@ExceptionHandler(RefusedException.class)
			ResponseEntity<String> refused() {
				return ResponseEntity.unprocessableContent().body("{}");
			}

			@PostMapping("/unrelated")
			String unrelated() {
				return "{}";
			}

		}

	}

}
