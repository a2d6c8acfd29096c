package dev.controllerobservability.internal.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.controllerobservability.test.PrometheusSample;
import dev.controllerobservability.test.PrometheusServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus server, native histograms enabled, scrapes what {@link ScrapeWriter}
 * renders: in protobuf where it asks for it (native buckets read by PromQL), and in the
 * text formats, served on paths of their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScrapeWriterPrometheusTests {

	/** A label value each format must escape or encode, read back as it was. */
	private static final String AWKWARD = "say \"hi\"\\ to\nthe é € \uD83D\uDE00";

	private static final int OBSERVATIONS = 40;

	private final PrometheusRegistry registry = new PrometheusRegistry();

	private HttpServer server;

	private PrometheusServer prometheus;

	@BeforeAll
	void serveAndScrape() throws IOException {
		NativeHistogram histogram = NativeHistogram
			.builder("rendered_duration_seconds", "Rendered \"durations\".",
					MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS)
			.labelNames("kind")
			.build();
		histogram.register(this.registry);
		for (int i = 0; i < OBSERVATIONS; i++) {
			histogram.labelValues((i % 2 == 0) ? "plain" : AWKWARD).observe(0.110);
		}
		Counter.builder().name("rendered_requests").help("Requests.").register(this.registry).inc();
		ScrapeWriter writer = ScrapeWriter.of(this.registry);
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/actuator/prometheus", (exchange) -> {
			String accept = String.valueOf(exchange.getRequestHeaders().getFirst("Accept"));
			serve(exchange, writer, accept.contains("application/vnd.google.protobuf")
					? ScrapeFormat.PROMETHEUS_PROTOBUF : ScrapeFormat.PROMETHEUS_TEXT);
		});
		this.server.createContext("/text", (exchange) -> serve(exchange, writer, ScrapeFormat.PROMETHEUS_TEXT));
		this.server.createContext("/openmetrics", (exchange) -> serve(exchange, writer, ScrapeFormat.OPENMETRICS_TEXT));
		this.server.start();
		int port = this.server.getAddress().getPort();
		this.prometheus = PrometheusServer.scraping(port)
			.job("text", port, "/text")
			.job("openmetrics", port, "/openmetrics")
			.flags("--enable-feature=native-histograms")
			.start()
			.awaitTargetsUp(Duration.ofSeconds(30));
		for (String job : List.of("text", "openmetrics")) {
			this.prometheus.awaitQuery("sum(rendered_duration_seconds_count{job=\"" + job + "\"})",
					(samples) -> samples.size() == 1 && samples.get(0).value() == OBSERVATIONS, Duration.ofSeconds(30));
		}
		this.prometheus.awaitQuery("histogram_count(sum(rendered_duration_seconds{job=\"controller\"}))",
				(samples) -> samples.size() == 1 && samples.get(0).value() == OBSERVATIONS, Duration.ofSeconds(30));
	}

	private static void serve(HttpExchange exchange, ScrapeWriter writer, ScrapeFormat format) throws IOException {
		exchange.getResponseHeaders().set("Content-Type", format.contentType());
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream body = exchange.getResponseBody()) {
			writer.write(format, null, body);
		}
	}

	@AfterAll
	void stop() {
		if (this.prometheus != null) {
			this.prometheus.close();
		}
		if (this.server != null) {
			this.server.stop(0);
		}
	}

	@Test
	void readsTheNativeBucketsOfTheProtobufScrape() {
		double p99 = this.prometheus
			.queryScalar("histogram_quantile(0.99, sum(rendered_duration_seconds{job=\"controller\"}))");
		// Schema 3: (2^(-26/8), 2^(-25/8)] = (0.1051, 0.1146] holds 110 ms.
		assertThat(p99).isGreaterThan(0.105).isLessThanOrEqualTo(0.1147);
		assertThat(this.prometheus.queryScalar("sum(rendered_requests_total{job=\"controller\"})")).isEqualTo(1);
	}

	@Test
	void readsTheClassicBucketsAndEscapedLabelsOfBothTextFormats() {
		for (String job : List.of("text", "openmetrics")) {
			String selector = "{job=\"" + job + "\"}";
			double p99 = this.prometheus.queryScalar(
					"histogram_quantile(0.99, sum by (le) (rendered_duration_seconds_bucket" + selector + "))");
			assertThat(p99).as(job).isGreaterThan(0.1).isLessThanOrEqualTo(0.15);
			List<PrometheusSample> counts = this.prometheus.query("rendered_duration_seconds_count" + selector);
			assertThat(counts).as(job)
				.extracting((sample) -> sample.labels().get("kind"))
				.containsExactlyInAnyOrder("plain", AWKWARD);
			assertThat(counts).allSatisfy((sample) -> assertThat(sample.value()).isEqualTo(OBSERVATIONS / 2));
			assertThat(this.prometheus.queryScalar("sum(rendered_requests_total" + selector + ")")).isEqualTo(1);
		}
	}

}
