package dev.controllerobservability.it.webflux;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

import dev.controllerobservability.internal.test.WebhookReviews;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * AdmissionReviews and ConversionReviews sent to the WebFlux application's webhooks, read
 * back from {@code /actuator/prometheus}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMetrics
class WebFluxWebhookTests {

	@LocalServerPort
	private int port;

	@Autowired
	private PrometheusRegistry prometheusRegistry;

	private WebClient client;

	@BeforeEach
	void client() {
		this.client = WebClient.create("http://localhost:" + this.port);
	}

	@Test
	void recordsTheAnnotatedAdmissionWebhookItsPanicsAndItsRequestsInFlight() throws Exception {
		double panics = scrape().value("controller_runtime_webhook_panics_total", Map.of());
		assertThat(post("/validate", WebhookReviews.admission("allowed"))).isEqualTo(200);
		assertThat(post("/validate", WebhookReviews.admission("panic"))).isEqualTo(500);
		Mono<Integer> blocked = this.client.post()
			.uri("/validate")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(WebhookReviews.admission("block"))
			.exchangeToMono((response) -> Mono.just(response.statusCode().value()))
			.cache();
		blocked.subscribe();
		assertThat(WebhookHandlers.blocked.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(scrape().value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/validate")))
			.isEqualTo(1.0);
		WebhookHandlers.release.countDown();
		assertThat(blocked.block(Duration.ofSeconds(30))).isEqualTo(200);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(
					scrape().value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/validate")))
				.isEqualTo(0.0));
		PrometheusScrape scrape = scrape();
		assertThat(requests(scrape, "/validate", "200")).isEqualTo(2.0);
		assertThat(requests(scrape, "/validate", "500")).isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_panics_total", Map.of())).isEqualTo(panics + 1);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_count", Map.of("webhook", "/validate")))
			.isEqualTo(3.0);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_bucket",
				Map.of("webhook", "/validate", "le", "1000.0")))
			.isEqualTo(3.0);
		HistogramSnapshot.HistogramDataPointSnapshot latency = this.prometheusRegistry.scrape()
			.stream()
			.filter((snapshot) -> snapshot.getMetadata()
				.getPrometheusName()
				.equals("controller_runtime_webhook_latency_seconds"))
			.flatMap((snapshot) -> ((HistogramSnapshot) snapshot).getDataPoints().stream())
			.filter((series) -> "/validate".equals(series.getLabels().get("webhook")))
			.findFirst()
			.orElseThrow();
		assertThat(latency.getNativeSchema()).isEqualTo(3);
	}

	@Test
	void recordsTheConversionWebhookDeclaredInProperties() throws Exception {
		double panics = scrape().value("controller_runtime_conversion_webhook_panics_total", Map.of());
		assertThat(post("/convert", WebhookReviews.conversion("example.com/v2"))).isEqualTo(200);
		assertThat(post("/convert", WebhookReviews.conversion("panic/v1"))).isEqualTo(500);
		assertThat(post("/convert", "not json")).isEqualTo(500);
		PrometheusScrape scrape = scrape();
		assertThat(requests(scrape, "/convert", "200")).isEqualTo(1.0);
		assertThat(requests(scrape, "/convert", "500")).isEqualTo(2.0);
		assertThat(scrape.value("controller_runtime_conversion_webhook_panics_total", Map.of())).isEqualTo(panics + 2);
		assertThat(scrape.value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/convert")))
			.isEqualTo(0.0);
	}

	@Test
	void answersAResponseStatusErrorWithItsCodeAndNoPanic() throws Exception {
		double panics = scrape().value("controller_runtime_conversion_webhook_panics_total", Map.of());
		assertThat(this.client.get()
			.uri("/convert")
			.exchangeToMono((response) -> Mono.just(response.statusCode().value()))
			.block(Duration.ofSeconds(30))).isEqualTo(405);
		PrometheusScrape scrape = scrape();
		assertThat(requests(scrape, "/convert", "405")).isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_conversion_webhook_panics_total", Map.of())).isEqualTo(panics);
	}

	private int post(String path, String body) {
		return this.client.post()
			.uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchangeToMono((response) -> Mono.just(response.statusCode().value()))
			.block(Duration.ofSeconds(30));
	}

	private static double requests(PrometheusScrape scrape, String webhook, String code) {
		return scrape.value("controller_runtime_webhook_requests_total", Map.of("webhook", webhook, "code", code));
	}

	private PrometheusScrape scrape() throws Exception {
		return PrometheusScrape.fetch("http://localhost:" + this.port + "/actuator/prometheus");
	}

}
