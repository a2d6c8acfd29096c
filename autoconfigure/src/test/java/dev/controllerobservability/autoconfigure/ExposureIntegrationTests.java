package dev.controllerobservability.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the starter and no exposure settings of the user's, only {@code health} and
 * {@code prometheus} answer, here on a separate management port; the application port
 * serves no actuator endpoint at all.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.server.port=0", "controller.observability.namespace=karpenter" })
@AutoConfigureMetrics
class ExposureIntegrationTests {

	private static final List<String> OTHER_ENDPOINTS = List.of("beans", "env", "configprops", "metrics", "loggers",
			"heapdump", "threaddump", "mappings", "info", "conditions", "scheduledtasks", "shutdown",
			"controllermetrics", "controllermetricslint", "controllerrules", "sbom", "caches");

	@LocalServerPort
	private int port;

	@LocalManagementPort
	private int managementPort;

	@Test
	void servesOnlyHealthAndPrometheusOnTheManagementPort() throws Exception {
		assertThat(this.managementPort).isNotEqualTo(this.port);
		assertThat(status(this.managementPort, "/actuator/health")).isEqualTo(200);
		assertThat(status(this.managementPort, "/actuator/prometheus")).isEqualTo(200);
		assertThat(body(this.managementPort, "/actuator/prometheus")).contains("karpenter_observability_errors_total");
		for (String endpoint : OTHER_ENDPOINTS) {
			assertThat(status(this.managementPort, "/actuator/" + endpoint)).as(endpoint).isEqualTo(404);
		}
		assertThat(status(this.port, "/actuator/prometheus")).isEqualTo(404);
		assertThat(status(this.port, "/actuator/health")).isEqualTo(404);
	}

	private static int status(int port, String path) throws Exception {
		return send(port, path).statusCode();
	}

	private static String body(int port, String path) throws Exception {
		return send(port, path).body();
	}

	private static HttpResponse<String> send(int port, String path) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
	}

	// No component scan: this package holds the auto-configuration itself.
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
