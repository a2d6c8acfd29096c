package dev.controllerobservability.autoconfigure.scrape;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/prometheus} over HTTP with a maximum size below the whole scrape: the
 * whole scrape is answered with status 500 and a text body naming the limit and the
 * property, and a scrape of fewer names under the limit holds the refusal's count.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "controller.observability.namespace=karpenter", "controller.observability.scrape.max-size=4KB" })
@AutoConfigureMetrics
class SharedScrapeIntegrationTests {

	@LocalServerPort
	private int port;

	@Test
	void answersAScrapePastTheMaximumWith500AndCountsIt() throws Exception {
		HttpResponse<String> refused = get("/actuator/prometheus");
		assertThat(refused.statusCode()).isEqualTo(500);
		assertThat(refused.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/plain"));
		assertThat(refused.body()).startsWith("The scrape was refused: it passed its maximum size of 4096 bytes "
				+ "(controller.observability.scrape.max-size) at ");
		HttpResponse<String> errors = get("/actuator/prometheus?includedNames=karpenter_observability_scrape_errors");
		assertThat(errors.statusCode()).isEqualTo(200);
		assertThat(PrometheusScrape.parse(errors.body())
			.value("karpenter_observability_scrape_errors_total", Map.of("reason", "too_large"))).isEqualTo(1);
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
				.header("Accept", "text/plain;version=0.0.4")
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
