package dev.controllerobservability.scrape;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.internal.metrics.ScrapeFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * The JDK HTTP handler negotiates the format as Prometheus asks for it, filters by
 * {@code name[]} and {@code includedNames}, and answers a refused scrape with status 500
 * and the refusal's message.
 */
class ScrapeHandlerTests {

	/** What Prometheus 2.42 sends by default. */
	static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0,"
			+ "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

	/** What Prometheus sends with native histograms enabled. */
	static final String NATIVE_HISTOGRAMS_ACCEPT = "application/vnd.google.protobuf;"
			+ "proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.1";

	private final PrometheusRegistry registry = new PrometheusRegistry();

	private final ScrapeErrors errors = ScrapeErrors.register(new SimpleMeterRegistry(), "widgets");

	private final ExecutorService executor = Executors.newFixedThreadPool(4);

	private HttpServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop(0);
		}
		this.executor.shutdownNow();
	}

	@Test
	void refusesNoScrapeNamingTheArgument() {
		assertThatNullPointerException().isThrownBy(() -> ScrapeHandler.of(null))
			.withMessage("ScrapeHandler.of(null): pass the SharedScrape to serve, built with SharedScrape.builder(…)");
	}

	@Test
	void negotiatesTheFormatFromTheAcceptHeader() {
		assertThat(ScrapeHandler.format(null)).isEqualTo(ScrapeFormat.PROMETHEUS_TEXT);
		assertThat(ScrapeHandler.format("*/*")).isEqualTo(ScrapeFormat.PROMETHEUS_TEXT);
		assertThat(ScrapeHandler.format(PROMETHEUS_ACCEPT)).isEqualTo(ScrapeFormat.OPENMETRICS_TEXT);
		assertThat(ScrapeHandler.format(NATIVE_HISTOGRAMS_ACCEPT)).isEqualTo(ScrapeFormat.PROMETHEUS_PROTOBUF);
		assertThat(ScrapeHandler.format("text/plain;version=0.0.4")).isEqualTo(ScrapeFormat.PROMETHEUS_TEXT);
		assertThat(ScrapeHandler.format("application/json")).isEqualTo(ScrapeFormat.PROMETHEUS_TEXT);
	}

	@Test
	void readsIncludedNamesFromNameAndIncludedNamesParameters() {
		assertThat(ScrapeHandler.includedNames(null)).isNull();
		assertThat(ScrapeHandler.includedNames("debug=true")).isNull();
		assertThat(ScrapeHandler.includedNames("name%5B%5D=pods_total&name[]=nodes_total"))
			.containsExactly("pods_total", "nodes_total");
		assertThat(ScrapeHandler.includedNames("includedNames=pods_total,nodes_total")).containsExactly("pods_total",
				"nodes_total");
	}

	@Test
	void servesTheNegotiatedFormatOfTheNamedFamilies() throws Exception {
		Counter.builder().name("pods").help("Pods.").register(this.registry).inc(2);
		Counter.builder().name("nodes").help("Nodes.").register(this.registry);
		start(SharedScrape.builder(this.registry, this.errors).build());
		HttpResponse<String> text = get("/metrics?name[]=pods", "text/plain;version=0.0.4");
		assertThat(text.statusCode()).isEqualTo(200);
		assertThat(text.headers().firstValue("Content-Type")).hasValue(ScrapeFormat.PROMETHEUS_TEXT.contentType());
		assertThat(Exposition.parse(text.body()).samples()).singleElement().satisfies((sample) -> {
			assertThat(sample.name()).isEqualTo("pods_total");
			assertThat(sample.value()).isEqualTo(2.0);
		});
		// Families are named without the counter's _total, as in Spring Boot's endpoint.
		assertThat(Exposition.parse(get("/metrics?name[]=pods_total", "text/plain;version=0.0.4").body()).samples())
			.isEmpty();
		HttpResponse<String> openMetrics = get("/metrics", PROMETHEUS_ACCEPT);
		assertThat(openMetrics.headers().firstValue("Content-Type"))
			.hasValue(ScrapeFormat.OPENMETRICS_TEXT.contentType());
		assertThat(openMetrics.body()).contains("pods_total 2.0", "nodes_total 0.0").endsWith("# EOF\n");
	}

	@Test
	void answersARefusedScrapeWithStatus500AndTheRefusal() throws Exception {
		Counter pods = Counter.builder().name("pods").help("Pods.").labelNames("pod").register(this.registry);
		for (int i = 0; i < 100; i++) {
			pods.labelValues("pod-" + i).inc();
		}
		start(SharedScrape.builder(this.registry, this.errors).maxSize(1000).build());
		HttpResponse<String> refused = get("/metrics", PROMETHEUS_ACCEPT);
		assertThat(refused.statusCode()).isEqualTo(500);
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
		assertThat(refused.body()).startsWith("The scrape was refused: it passed its maximum size of 1000 bytes "
				+ "(SharedScrape.Builder.maxSize(…)) at ");
		assertThat(this.errors.tooLarge()).isEqualTo(1);
	}

	private void start(SharedScrape scrape) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/metrics", ScrapeHandler.of(scrape));
		this.server.start();
	}

	private HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.server.getAddress().getPort() + path))
			.header("Accept", accept)
			.build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
	}

}
