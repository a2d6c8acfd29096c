package dev.controllerobservability.kubernetes.client;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * controller-runtime's opt-in {@code rest_client_*} families for a fabric8 client,
 * against the fabric8 mock API server: exact byte counts, client-go's buckets, retries by
 * the outcome of each retry, and nothing unless enabled.
 */
class RestClientMetricsTests {

	private static final String SETTINGS = "/api/v1/namespaces/default/configmaps/settings";

	/** A ConfigMap as the API server sends it, with characters of 1 to 4 UTF-8 bytes. */
	private static final String SETTINGS_JSON = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
			+ "{\"name\":\"settings\",\"namespace\":\"default\"},\"data\":{\"greeting\":\"grüße ✓ 🚀\"}}";

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final SimpleMeterRegistry selfMetrics = new SimpleMeterRegistry();

	private final RecordingFailures failures = new RecordingFailures(this.selfMetrics, "karpenter",
			Duration.ofHours(1));

	private KubernetesMockServer server;

	private String host;

	@BeforeEach
	void startApiServer() {
		this.server = new KubernetesMockServer(false);
		this.server.init();
		this.host = "localhost:" + this.server.getPort();
	}

	@AfterEach
	void stopApiServer() {
		this.server.destroy();
	}

	@Test
	void recordsTheBytesSentAndTheBytesReceivedExactly() throws Exception {
		this.server.expect().get().withPath(SETTINGS).andReturn(200, SETTINGS_JSON).once();
		this.server.expect()
			.post()
			.withPath("/api/v1/namespaces/default/configmaps")
			.andReturn(201, SETTINGS_JSON)
			.once();
		try (KubernetesClient client = instrumented(all(), config(0))) {
			ConfigMap settings = client.configMaps().inNamespace("default").withName("settings").get();
			assertThat(settings.getData()).containsEntry("greeting", "grüße ✓ 🚀");
			client.configMaps()
				.inNamespace("default")
				.resource(new ConfigMapBuilder().withNewMetadata()
					.withName("created")
					.endMetadata()
					.addToData("greeting", "grüße ✓ 🚀")
					.build())
				.create();
		}
		this.server.takeRequest(10, TimeUnit.SECONDS);
		RecordedRequest create = this.server.takeRequest(10, TimeUnit.SECONDS);
		long received = create.getBody().size();
		long sent = SETTINGS_JSON.getBytes(StandardCharsets.UTF_8).length;
		assertThat(received).isGreaterThan(64);
		PrometheusScrape scrape = scrapeWhenResponsesAreRecorded(2);
		// The GET carries no body: client-go records 0 for it too.
		assertThat(scrape.value("rest_client_request_size_bytes_count", verb("GET"))).isEqualTo(1.0);
		assertThat(scrape.value("rest_client_request_size_bytes_sum", verb("GET"))).isZero();
		assertThat(scrape.value("rest_client_request_size_bytes_count", verb("POST"))).isEqualTo(1.0);
		assertThat(scrape.value("rest_client_request_size_bytes_sum", verb("POST"))).isEqualTo(received);
		assertThat(scrape.value("rest_client_response_size_bytes_sum", verb("GET"))).isEqualTo(sent);
		assertThat(scrape.value("rest_client_response_size_bytes_sum", verb("POST"))).isEqualTo(sent);
	}

	@Test
	void hasClientGosSizeBucketsAndNativeBucketsOfSchemaThree() throws Exception {
		this.server.expect().get().withPath(SETTINGS).andReturn(200, SETTINGS_JSON).once();
		try (KubernetesClient client = instrumented(all(), config(0))) {
			client.configMaps().inNamespace("default").withName("settings").get();
		}
		long sent = SETTINGS_JSON.getBytes(StandardCharsets.UTF_8).length;
		assertThat(sent).isBetween(65L, 256L);
		PrometheusScrape scrape = scrapeWhenResponsesAreRecorded(1);
		List<PrometheusScrape.Sample> buckets = scrape.samples("rest_client_response_size_bytes_bucket");
		assertThat(buckets.stream()
			.map((sample) -> Double.parseDouble(sample.labels().get("le").replace("+Inf", "Infinity"))))
			.containsExactly(64.0, 256.0, 512.0, 1024.0, 4096.0, 16384.0, 65536.0, 262144.0, 1048576.0, 4194304.0,
					16777216.0, Double.POSITIVE_INFINITY);
		// Cumulative: the body falls in (64, 256].
		assertThat(buckets.get(0).value()).isZero();
		assertThat(buckets.get(1).value()).isEqualTo(1.0);
		assertThat(scrape.type("rest_client_response_size_bytes")).isEqualTo("histogram");
		assertThat(scrape.families()).doesNotContain("rest_client_response_size_bytes_max");
		assertThat(scrape.help("rest_client_response_size_bytes"))
			.isEqualTo("Response size in bytes. Broken down by verb and host.");
		assertThat(scrape.help("rest_client_request_size_bytes"))
			.isEqualTo("Request size in bytes. Broken down by verb and host.");
		HistogramSnapshot.HistogramDataPointSnapshot series = this.registry.getPrometheusRegistry()
			.scrape()
			.stream()
			.filter((snapshot) -> snapshot.getMetadata().getPrometheusName().equals("rest_client_response_size_bytes"))
			.map((snapshot) -> ((HistogramSnapshot) snapshot).getDataPoints().get(0))
			.findFirst()
			.orElseThrow();
		assertThat(series.hasNativeHistogramData()).isTrue();
		// client_golang turns controller-runtime's bucket factor 1.1 into schema 3.
		assertThat(series.getNativeSchema()).isEqualTo(3);
	}

	@Test
	void countsARetryByTheOutcomeOfTheRetriedAttemptAsClientGoDoes() throws Exception {
		this.server.expect().get().withPath(SETTINGS).andReturn(503, unavailable()).once();
		this.server.expect().get().withPath(SETTINGS).andReturn(200, SETTINGS_JSON).once();
		try (KubernetesClient client = instrumented(all(), config(3))) {
			assertThat(client.configMaps().inNamespace("default").withName("settings").get()).isNotNull();
		}
		PrometheusScrape scrape = scrapeWhenResponsesAreRecorded(1);
		assertThat(scrape.value("rest_client_requests_total", requests("503"))).isEqualTo(1.0);
		assertThat(scrape.value("rest_client_requests_total", requests("200"))).isEqualTo(1.0);
		// client-go's withRetry.After labels attempt 2 with its own code.
		assertThat(scrape.value("rest_client_request_retries_total", retries("200"))).isEqualTo(1.0);
		assertThat(scrape.samples("rest_client_request_retries_total")).hasSize(1);
		assertThat(scrape.help("rest_client_request_retries_total"))
			.isEqualTo("Number of request retries, partitioned by status code, verb, and host.");
		// Two attempts sent no body; only the final response was read.
		assertThat(scrape.value("rest_client_request_size_bytes_count", verb("GET"))).isEqualTo(2.0);
		assertThat(scrape.value("rest_client_response_size_bytes_count", verb("GET"))).isEqualTo(1.0);
	}

	@Test
	void countsEveryAttemptAfterTheFirstUpToTheLimitAndStartsAnewForTheNextCall() {
		this.server.expect().get().withPath(SETTINGS).andReturn(503, unavailable()).times(3);
		this.server.expect().get().withPath(SETTINGS).andReturn(200, SETTINGS_JSON).always();
		try (KubernetesClient client = instrumented(List.of(RestClientMetric.REQUEST_RETRIES), config(1))) {
			// Limit 1: two attempts, both 503.
			assertThatThrownBy(() -> client.configMaps().inNamespace("default").withName("settings").get())
				.isInstanceOf(KubernetesClientException.class);
			// A new call: 503, then its one retry gets 200.
			client.configMaps().inNamespace("default").withName("settings").get();
			client.configMaps().inNamespace("default").withName("settings").get();
		}
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("rest_client_requests_total", requests("503"))).isEqualTo(3.0);
		assertThat(scrape.value("rest_client_requests_total", requests("200"))).isEqualTo(2.0);
		assertThat(scrape.value("rest_client_request_retries_total", retries("503"))).isEqualTo(1.0);
		assertThat(scrape.value("rest_client_request_retries_total", retries("200"))).isEqualTo(1.0);
		assertThat(scrape.families()).doesNotContain("rest_client_request_size_bytes",
				"rest_client_response_size_bytes");
	}

	@Test
	void countsARetryThatGotNoResponseAsAnError() {
		// Three attempts; fabric8 tells interceptors of a connection failure only when it
		// retries, so the third, a retry, is seen by nobody.
		Config unreachable = new ConfigBuilder(config(2)).withMasterUrl("http://localhost:1").build();
		try (KubernetesClient client = instrumented(all(), unreachable)) {
			assertThatThrownBy(() -> client.configMaps().inNamespace("default").withName("settings").get())
				.isInstanceOf(KubernetesClientException.class);
		}
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("rest_client_request_retries_total",
				Map.of("code", "<error>", "verb", "GET", "host", "localhost:1")))
			.isEqualTo(1.0);
		// No response: how much of the body left is unknown.
		assertThat(scrape.samples("rest_client_request_size_bytes_count")).isEmpty();
	}

	@Test
	void exposesNoneOfTheOptInFamiliesUnlessEnabled() {
		this.server.expect().get().withPath(SETTINGS).andReturn(503, unavailable()).once();
		this.server.expect().get().withPath(SETTINGS).andReturn(200, SETTINGS_JSON).once();
		KubernetesClientMetrics plain = new KubernetesClientMetrics(this.registry, this.failures);
		try (KubernetesClient client = plain.instrument(new KubernetesClientBuilder().withConfig(config(3))).build()) {
			client.configMaps().inNamespace("default").withName("settings").get();
		}
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("rest_client_requests_total", requests("200"))).isEqualTo(1.0);
		assertThat(scrape.families()).doesNotContain("rest_client_request_size_bytes",
				"rest_client_response_size_bytes", "rest_client_request_retries_total");
	}

	@Test
	void neverFailsTheCallWhenRecordingFails() {
		this.server.expect().get().withPath(SETTINGS).andReturn(503, unavailable()).once();
		this.server.expect().get().withPath(SETTINGS).andReturn(200, SETTINGS_JSON).once();
		SimpleMeterRegistry failing = new SimpleMeterRegistry();
		failing.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				throw new IllegalStateException("registry is broken");
			}
		});
		KubernetesClientMetrics metrics = KubernetesClientMetrics.builder(failing, this.failures)
			.prometheusRegistry(this.registry.getPrometheusRegistry())
			.enable(all())
			.build();
		try (KubernetesClient client = metrics.instrument(new KubernetesClientBuilder().withConfig(config(3)))
			.build()) {
			ConfigMap settings = client.configMaps().inNamespace("default").withName("settings").get();
			assertThat(settings.getData()).containsEntry("greeting", "grüße ✓ 🚀");
		}
		// The first recording of each response (its request count) fails; the call
		// gets its ConfigMap all the same.
		assertThat(this.failures.count()).isEqualTo(2);
		assertThat(this.selfMetrics.get("karpenter.observability.errors").counter().count()).isEqualTo(2.0);
	}

	@Test
	void refusesSizeHistogramsWithoutAPrometheusRegistry() {
		assertThatIllegalStateException()
			.isThrownBy(() -> KubernetesClientMetrics.builder(this.registry, this.failures)
				.enable(RestClientMetric.RESPONSE_SIZE)
				.build())
			.withMessageContaining("[rest_client_response_size_bytes]")
			.withMessageContaining("prometheusRegistry(…)");
	}

	@Test
	void countsUtf8BytesAsTheJdkClientEncodesThem() {
		for (String text : List.of("", "plain", "grüße", "✓", "🚀", "a\uD800b", "\uDC00", "x\uD83D")) {
			assertThat(KubernetesClientMetrics.utf8Length(text)).as(text)
				.isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
		}
	}

	@Test
	void measuresBodiesAsTheJdkClientSendsThem() {
		assertThat(KubernetesClientMetrics.sentBodyBytes(request().build())).isZero();
		assertThat(KubernetesClientMetrics.sentBodyBytes(request().post("application/json", new byte[300]).build()))
			.isEqualTo(300);
		assertThat(KubernetesClientMetrics.sentBodyBytes(request().method("PUT", "application/json", "grüße").build()))
			.isEqualTo(7);
		assertThat(KubernetesClientMetrics.sentBodyBytes(
				request().method("PUT", "application/octet-stream", new ByteArrayInputStream(new byte[5]), 5L).build()))
			.isEqualTo(5);
		// A stream of unknown length is not measured, as client-go leaves an unknown
		// ContentLength.
		assertThat(KubernetesClientMetrics.sentBodyBytes(
				request().method("PUT", "application/octet-stream", new ByteArrayInputStream(new byte[5]), -1L)
					.build()))
			.isEqualTo(-1);
	}

	@Test
	void recordsNoSizesOfWatches() {
		// An HTTP watch streams one event, then ends; a WebSocket watch is upgraded.
		this.server.expect()
			.get()
			.withPath("/api/v1/namespaces/default/configmaps?allowWatchBookmarks=true&watch=true")
			.andReturn(200, "{\"type\":\"ADDED\",\"object\":" + SETTINGS_JSON + "}\n")
			.once();
		KubernetesMockServer crud = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(List.of()), false);
		crud.init();
		try {
			KubernetesClientMetrics clientMetrics = KubernetesClientMetrics.builder(this.registry, this.failures)
				.prometheusRegistry(this.registry.getPrometheusRegistry())
				.enable(all())
				.build();
			CountDownLatch streamed = new CountDownLatch(1);
			try (KubernetesClient client = clientMetrics
				.instrument(new KubernetesClientBuilder()
					.withConfig(new ConfigBuilder(config(0)).withOnlyHttpWatches(true).build()))
				.build(); Watch watch = client.configMaps().inNamespace("default").watch(watcher(streamed))) {
				assertThat(streamed.await(10, TimeUnit.SECONDS)).isTrue();
			}
			try (KubernetesClient client = clientMetrics
				.instrument(new KubernetesClientBuilder().withConfig(crud.createClient().getConfiguration()))
				.build();
					Watch watch = client.configMaps().inNamespace("default").watch(watcher(new CountDownLatch(1)))) {
				client.configMaps()
					.inNamespace("default")
					.resource(new ConfigMapBuilder().withNewMetadata().withName("watched").endMetadata().build())
					.create();
			}
			// fabric8 reports the upgrade to interceptors beside opening the watch.
			PrometheusScrape scrape = await().atMost(Duration.ofSeconds(10))
				.until(this::scrape,
						(read) -> read.samples("rest_client_requests_total")
							.stream()
							.map((sample) -> sample.labels().get("method") + " " + sample.labels().get("code"))
							.toList()
							.containsAll(List.of("GET 200", "GET 101", "POST 201")));
			assertThat(scrape.samples("rest_client_request_size_bytes_count"))
				.extracting((sample) -> sample.labels().get("verb"))
				.containsExactly("POST");
			assertThat(scrape.samples("rest_client_response_size_bytes_count"))
				.extracting((sample) -> sample.labels().get("verb"))
				.containsExactly("POST");
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			crud.destroy();
		}
	}

	@Test
	void countsAFailedWebSocketUpgradeOnceButCannotLinkItsRetry() throws Exception {
		String watch = "/api/v1/namespaces/default/configmaps?allowWatchBookmarks=true&watch=true";
		this.server.expect().get().withPath(watch).andReturn(503, unavailable()).once();
		this.server.expect().get().withPath(watch).andUpgradeToWebSocket().open().done().once();
		try (KubernetesClient client = instrumented(all(), config(3));
				Watch opened = client.configMaps().inNamespace("default").watch(watcher(new CountDownLatch(1)))) {
			// fabric8 reports the upgrade to interceptors beside opening the watch.
			PrometheusScrape scrape = await().atMost(Duration.ofSeconds(10))
				.until(this::scrape, (read) -> read.samples("rest_client_requests_total").size() == 2);
			// Counted once, although fabric8 hands the failed upgrade to after() once
			// more per interceptor.
			assertThat(scrape.value("rest_client_requests_total", requests("503"))).isEqualTo(1.0);
			assertThat(scrape.value("rest_client_requests_total", requests("101"))).isEqualTo(1.0);
			// fabric8 builds each upgrade attempt's request anew: the retry is not told
			// from a call.
			assertThat(scrape.families()).doesNotContain("rest_client_request_retries_total");
		}
	}

	private static Watcher<ConfigMap> watcher(CountDownLatch received) {
		return new Watcher<>() {
			@Override
			public void eventReceived(Action action, ConfigMap resource) {
				received.countDown();
			}

			@Override
			public void onClose(WatcherException cause) {
			}
		};
	}

	@Test
	void runsFirstAmongTheClientsInterceptorsAndOnce() {
		KubernetesClientMetrics clientMetrics = KubernetesClientMetrics.builder(this.registry, this.failures)
			.enable(RestClientMetric.REQUEST_RETRIES)
			.build();
		try (KubernetesClient client = clientMetrics
			.instrument(clientMetrics.instrument(new KubernetesClientBuilder().withConfig(config(0))).build())) {
			StandardHttpClientBuilder<?, ?, ?> builder = (StandardHttpClientBuilder<?, ?, ?>) client.getHttpClient()
				.newBuilder();
			assertThat(builder.getInterceptors().keySet()).hasSizeGreaterThan(1)
				.first()
				.isEqualTo(KubernetesClientMetrics.INTERCEPTOR_NAME);
			assertThat(builder.getInterceptors().values()).containsOnlyOnce(clientMetrics);
		}
	}

	private static HttpRequest.Builder request() {
		return new StandardHttpRequest.Builder().uri("https://localhost:6443/api/v1/namespaces/default/configmaps");
	}

	private KubernetesClient instrumented(List<RestClientMetric> metrics, Config config) {
		KubernetesClientMetrics clientMetrics = KubernetesClientMetrics.builder(this.registry, this.failures)
			.prometheusRegistry(this.registry.getPrometheusRegistry())
			.enable(metrics)
			.build();
		return clientMetrics.instrument(new KubernetesClientBuilder().withConfig(config)).build();
	}

	private static List<RestClientMetric> all() {
		return List.of(RestClientMetric.values());
	}

	private Config config(int retries) {
		return new ConfigBuilder(this.server.createClient().getConfiguration()).withRequestRetryBackoffLimit(retries)
			.withRequestRetryBackoffInterval(1)
			.build();
	}

	/** A response's size is recorded when its body has been read to its end. */
	private PrometheusScrape scrapeWhenResponsesAreRecorded(int responses) {
		return await().atMost(Duration.ofSeconds(10))
			.until(this::scrape,
					(scrape) -> scrape.samples("rest_client_response_size_bytes_count")
						.stream()
						.mapToDouble(PrometheusScrape.Sample::value)
						.sum() == responses);
	}

	private PrometheusScrape scrape() {
		return PrometheusScrape.parse(this.registry.scrape());
	}

	private static io.fabric8.kubernetes.api.model.Status unavailable() {
		return new StatusBuilder().withCode(503).withMessage("apiserver is shutting down").build();
	}

	private Map<String, String> verb(String verb) {
		return Map.of("verb", verb, "host", this.host);
	}

	private Map<String, String> requests(String code) {
		return Map.of("code", code, "method", "GET", "host", this.host);
	}

	private Map<String, String> retries(String code) {
		return Map.of("code", code, "verb", "GET", "host", this.host);
	}

}
