package dev.controllerobservability.kubernetes.webhook;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An admission webhook served by the JDK's HTTP server, with no Spring on the class path,
 * recorded through {@link WebhookMetrics} around its handler.
 */
class WebhookWithoutSpringTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final HttpServer server;

	WebhookWithoutSpringTests() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void recordsAnAdmissionReviewRoundTripAndAHandlerThatThrows() throws Exception {
		ControllerObservability observability = ControllerObservability.builder(this.registry)
			.namespace("widgets")
			.build();
		WebhookMetrics webhooks = WebhookMetrics
			.builder(this.registry, this.registry.getPrometheusRegistry(), observability.failures())
			.admission("/validate")
			.build();
		WebhookMetrics.Webhook validate = webhooks.webhook("/validate").orElseThrow();
		this.server.createContext("/validate", (exchange) -> {
			WebhookMetrics.Request request = validate.start();
			try {
				AdmissionReview review = Serialization.unmarshal(exchange.getRequestBody(), AdmissionReview.class);
				if ("panic".equals(review.getRequest().getName())) {
					throw new IllegalStateException("validator failed");
				}
				review.setResponse(
						new AdmissionResponseBuilder().withUid(review.getRequest().getUid()).withAllowed(true).build());
				review.setRequest(null);
				answer(exchange, 200, Serialization.asJson(review));
				request.finish(200);
			}
			catch (RuntimeException ex) {
				request.panicked();
				answer(exchange, 500, "");
			}
		});
		this.server.start();
		assertThat(post("allowed")).isEqualTo(200);
		assertThat(post("panic")).isEqualTo(500);
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.value("controller_runtime_webhook_requests_total",
				Map.of("webhook", "/validate", "code", "200")))
			.isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_requests_total",
				Map.of("webhook", "/validate", "code", "500")))
			.isEqualTo(1.0);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_count", Map.of("webhook", "/validate")))
			.isEqualTo(2.0);
		assertThat(scrape.value("controller_runtime_webhook_latency_seconds_bucket",
				Map.of("webhook", "/validate", "le", "1000.0")))
			.isEqualTo(2.0);
		assertThat(scrape.value("controller_runtime_webhook_requests_in_flight", Map.of("webhook", "/validate")))
			.isEqualTo(0.0);
		assertThat(scrape.value("controller_runtime_webhook_panics_total", Map.of())).isEqualTo(1.0);
	}

	private int post(String name) throws Exception {
		AdmissionReview review = new AdmissionReviewBuilder()
			.withRequest(new AdmissionRequestBuilder().withUid("uid-" + name).withName(name).build())
			.build();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.server.getAddress().getPort() + "/validate"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Serialization.asJson(review)))
			.build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	private static void answer(HttpExchange exchange, int code, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(code, (bytes.length == 0) ? -1 : bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
