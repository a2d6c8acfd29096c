package dev.controllerobservability.autoconfigure.kubernetes;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * API calls through Kubernetes clients the application has (its own beans, clients it
 * builds, and the one the starter provides) against the fabric8 mock API server, read
 * back from a Prometheus scrape.
 */
class KubernetesClientMetricsIntegrationTests {

	private static final String FLAKY = "/api/v1/namespaces/default/configmaps/flaky";

	private final ApplicationContextRunner contextRunner = KubernetesContextRunner
		.with(PrometheusMetricsExportAutoConfiguration.class);

	private KubernetesMockServer server;

	private String host;

	@BeforeEach
	void startApiServer() {
		this.server = new KubernetesMockServer(false);
		this.server.init();
		this.host = "localhost:" + this.server.getPort();
		this.server.expect()
			.get()
			.withPath("/api/v1/namespaces/default/configmaps/settings")
			.andReturn(200, new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata().build())
			.always();
		this.server.expect()
			.get()
			.withPath("/api/v1/namespaces/default/configmaps/missing")
			.andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound").build())
			.always();
		this.server.expect()
			.post()
			.withPath("/api/v1/namespaces/default/pods")
			.andReturn(500, new StatusBuilder().withCode(500).withMessage("etcd is down").build())
			.always();
	}

	@AfterEach
	void stopApiServer() {
		this.server.destroy();
	}

	@Test
	void countsCallsOfAClientBuiltThroughTheClientMetricsByCodeMethodAndHost() {
		this.contextRunner.run((context) -> {
			try (KubernetesClient client = context.getBean(KubernetesClientMetrics.class)
				.instrument(new KubernetesClientBuilder().withConfig(config()))
				.build()) {
				callTheApiServer(client);
				PrometheusScrape scrape = scrape(context.getBean(PrometheusMeterRegistry.class));
				assertThat(scrape.value("rest_client_requests_total", labels("200", "GET"))).isEqualTo(2.0);
				assertThat(scrape.value("rest_client_requests_total", labels("404", "GET"))).isEqualTo(1.0);
				assertThat(scrape.value("rest_client_requests_total", labels("500", "POST"))).isEqualTo(1.0);
				assertThat(scrape.samples("rest_client_requests_total")).hasSize(3);
				assertThat(scrape.type("rest_client_requests_total")).isEqualTo("counter");
				assertThat(scrape.value("rest_client_request_duration_seconds_count",
						Map.of("verb", "GET", "host", this.host)))
					.isEqualTo(3.0);
				assertThat(scrape.value("rest_client_request_duration_seconds_count",
						Map.of("verb", "POST", "host", this.host)))
					.isEqualTo(1.0);
				assertThat(scrape.samples("rest_client_request_duration_seconds_bucket")
					.stream()
					.filter((sample) -> sample.labels().get("verb").equals("GET"))
					.map((sample) -> sample.labels().get("le"))).containsExactly("0.005", "0.025", "0.1", "0.25", "0.5",
							"1.0", "2.0", "4.0", "8.0", "15.0", "30.0", "60.0", "+Inf");
				// A Micrometer timer: unlike client-go's histogram, it has a _max gauge
				// (documented).
				assertThat(scrape.type("rest_client_request_duration_seconds_max")).isEqualTo("gauge");
			}
		});
	}

	@Test
	void countsAClientBuiltWithTheOneLinerOnceEvenWhenItIsAlsoABean() {
		this.contextRunner.run((context) -> {
			KubernetesClientMetrics clientMetrics = context.getBean(KubernetesClientMetrics.class);
			KubernetesClient built = clientMetrics.instrument(new KubernetesClientBuilder().withConfig(config()))
				.build();
			KubernetesClient twice = clientMetrics.instrument(built);
			twice.configMaps().inNamespace("default").withName("settings").get();
			built.configMaps().inNamespace("default").withName("settings").get();
			PrometheusScrape scrape = scrape(context.getBean(PrometheusMeterRegistry.class));
			assertThat(scrape.value("rest_client_requests_total", labels("200", "GET"))).isEqualTo(2.0);
		});
	}

	@Test
	void leavesTheApplicationsClientBeanAsItIsAndDefinesNoneOfItsOwn() {
		AtomicReference<KubernetesClient> applications = new AtomicReference<>();
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(KubernetesClient.class));
		this.contextRunner.withBean(KubernetesClient.class, () -> {
			applications.set(new KubernetesClientBuilder().withConfig(config()).build());
			return applications.get();
		}).run((context) -> {
			KubernetesClient client = context.getBean(KubernetesClient.class);
			assertThat(client).isSameAs(applications.get());
			ConfigMap settings = client.configMaps().inNamespace("default").withName("settings").get();
			assertThat(settings.getMetadata().getName()).isEqualTo("settings");
			PrometheusScrape scrape = scrape(context.getBean(PrometheusMeterRegistry.class));
			assertThat(scrape.samples("rest_client_requests_total")).isEmpty();
		});
	}

	@Test
	void countsAttemptsThatGotNoResponseAsErrors() {
		// Three attempts; fabric8 reports a connection failure to interceptors only when
		// it
		// retries, so the last attempt of a call that fails for good is not counted.
		Config unreachable = new ConfigBuilder(config()).withMasterUrl("http://localhost:1")
			.withRequestRetryBackoffLimit(2)
			.withRequestRetryBackoffInterval(10)
			.build();
		this.contextRunner.run((context) -> {
			try (KubernetesClient client = context.getBean(KubernetesClientMetrics.class)
				.instrument(new KubernetesClientBuilder().withConfig(unreachable))
				.build()) {
				assertThatThrownBy(() -> client.configMaps().inNamespace("default").withName("settings").get())
					.isInstanceOf(KubernetesClientException.class);
				PrometheusScrape scrape = scrape(context.getBean(PrometheusMeterRegistry.class));
				assertThat(scrape.value("rest_client_requests_total",
						Map.of("code", "<error>", "method", "GET", "host", "localhost:1")))
					.isEqualTo(2.0);
				assertThat(scrape.samples("rest_client_request_duration_seconds_count")).isEmpty();
			}
		});
	}

	@Test
	void recordsTheOptInFamiliesEnabledThroughTheProperty() {
		expectUnavailableOnce();
		this.contextRunner
			.withPropertyValues(
					"controller.observability.kubernetes.client.metrics=request-size,response-size,request-retries")
			.run((context) -> {
				try (KubernetesClient client = context.getBean(KubernetesClientMetrics.class)
					.instrument(new KubernetesClientBuilder().withConfig(retrying()))
					.build()) {
					client.configMaps().inNamespace("default").withName("flaky").get();
					PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
					PrometheusScrape scrape = await().atMost(Duration.ofSeconds(10))
						.until(() -> scrape(registry),
								(read) -> !read.samples("rest_client_response_size_bytes_count").isEmpty());
					assertThat(scrape.value("rest_client_request_retries_total",
							Map.of("code", "200", "verb", "GET", "host", this.host)))
						.isEqualTo(1.0);
					assertThat(scrape.value("rest_client_request_size_bytes_count",
							Map.of("verb", "GET", "host", this.host)))
						.isEqualTo(2.0);
					assertThat(scrape.value("rest_client_response_size_bytes_count",
							Map.of("verb", "GET", "host", this.host)))
						.isEqualTo(1.0);
					assertThat(scrape.type("rest_client_response_size_bytes")).isEqualTo("histogram");
				}
			});
	}

	@Test
	void recordsNoOptInFamilyByDefault() {
		expectUnavailableOnce();
		this.contextRunner.run((context) -> {
			try (KubernetesClient client = context.getBean(KubernetesClientMetrics.class)
				.instrument(new KubernetesClientBuilder().withConfig(retrying()))
				.build()) {
				client.configMaps().inNamespace("default").withName("flaky").get();
				PrometheusScrape scrape = scrape(context.getBean(PrometheusMeterRegistry.class));
				assertThat(scrape.value("rest_client_requests_total", labels("503", "GET"))).isEqualTo(1.0);
				assertThat(scrape.families()).doesNotContain("rest_client_request_size_bytes",
						"rest_client_response_size_bytes", "rest_client_request_retries_total");
			}
		});
	}

	@Test
	void refusesAFamilyFabric8CannotFeedNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("controller.observability.kubernetes.client.metrics=rate-limiter-duration")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("rate-limiter-duration"));
	}

	@Test
	void isOffWhenTurnedOff() {
		this.contextRunner.withPropertyValues("controller.observability.kubernetes.enabled=false")
			.withBean(KubernetesClient.class, () -> new KubernetesClientBuilder().withConfig(config()).build())
			.run((context) -> {
				assertThat(context).doesNotHaveBean(KubernetesClientMetrics.class);
				context.getBean(KubernetesClient.class).configMaps().inNamespace("default").withName("settings").get();
				assertThat(scrape(context.getBean(PrometheusMeterRegistry.class)).families())
					.noneMatch((family) -> family.startsWith("rest_client"));
			});
	}

	private void callTheApiServer(KubernetesClient client) {
		client.configMaps().inNamespace("default").withName("settings").get();
		client.configMaps().inNamespace("default").withName("settings").get();
		assertThat(client.configMaps().inNamespace("default").withName("missing").get()).isNull();
		assertThatThrownBy(() -> client.pods()
			.inNamespace("default")
			.resource(new PodBuilder().withNewMetadata().withName("pending").endMetadata().build())
			.create()).isInstanceOf(KubernetesClientException.class).hasMessageContaining("etcd is down");
	}

	private Config config() {
		// No retries: each call is one HTTP attempt, so the counts below are exact.
		return new ConfigBuilder(this.server.createClient().getConfiguration()).withRequestRetryBackoffLimit(0).build();
	}

	private Config retrying() {
		return new ConfigBuilder(config()).withRequestRetryBackoffLimit(3).withRequestRetryBackoffInterval(1).build();
	}

	/** The flaky ConfigMap: 503 first, then 200. */
	private void expectUnavailableOnce() {
		this.server.expect().get().withPath(FLAKY).andReturn(503, unavailable()).once();
		this.server.expect()
			.get()
			.withPath(FLAKY)
			.andReturn(200, new ConfigMapBuilder().withNewMetadata().withName("flaky").endMetadata().build())
			.once();
	}

	private static Status unavailable() {
		return new StatusBuilder().withCode(503).withMessage("apiserver is shutting down").build();
	}

	private Map<String, String> labels(String code, String method) {
		return Map.of("code", code, "method", method, "host", this.host);
	}

	static PrometheusScrape scrape(PrometheusMeterRegistry registry) {
		return PrometheusScrape.parse(registry.scrape());
	}

}
