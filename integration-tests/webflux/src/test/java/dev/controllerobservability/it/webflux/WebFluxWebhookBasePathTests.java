package dev.controllerobservability.it.webflux;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

import dev.controllerobservability.internal.test.WebhookReviews;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under {@code spring.webflux.base-path}, a webhook path is matched as the handler
 * mappings see it, without the base path, and that path is the {@code webhook} label.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "spring.webflux.base-path=/api")
@AutoConfigureMetrics
class WebFluxWebhookBasePathTests {

	@LocalServerPort
	private int port;

	@Test
	void matchesPathsWithoutTheBasePath() throws Exception {
		WebClient client = WebClient.create("http://localhost:" + this.port);
		for (String path : new String[] { "/api/convert", "/api/validate" }) {
			String review = path.endsWith("convert") ? WebhookReviews.conversion("example.com/v2")
					: WebhookReviews.admission("allowed");
			assertThat(client.post()
				.uri(path)
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(review)
				.exchangeToMono((response) -> Mono.just(response.statusCode().value()))
				.block(Duration.ofSeconds(30))).isEqualTo(200);
		}
		PrometheusScrape scrape = PrometheusScrape.fetch("http://localhost:" + this.port + "/api/actuator/prometheus");
		assertThat(
				scrape.value("controller_runtime_webhook_requests_total", Map.of("webhook", "/convert", "code", "200")))
			.isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_requests_total",
				Map.of("webhook", "/validate", "code", "200")))
			.isEqualTo(1.0);
		assertThat(scrape.samples("controller_runtime_webhook_requests_total"))
			.noneMatch((sample) -> sample.labels().get("webhook").startsWith("/api"));
	}

}
