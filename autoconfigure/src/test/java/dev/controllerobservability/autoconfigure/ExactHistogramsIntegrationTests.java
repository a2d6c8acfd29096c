package dev.controllerobservability.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.test.ProtobufHistograms;
import dev.controllerobservability.test.PrometheusServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Declared histograms of ratios, bytes, default-bucket seconds and negative values, on
 * the {@code PrometheusMeterRegistry} Spring Boot makes: every bucket of
 * {@code /actuator/prometheus} agrees with a count of the values recorded, in the text
 * format 0.0.4, OpenMetrics and protobuf, and a real Prometheus server with native
 * histograms reads the same counts, sums and fractions from the native buckets.
 * {@code management.metrics.distribution.*} does not change their buckets.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.config.name=minimal-app", "management.metrics.tags.region=eu",
				"controller.observability.common-tags.cluster=dev",
				"controller.observability.metrics.packing_efficiency_ratio.type=histogram",
				"controller.observability.metrics.packing_efficiency_ratio.unit=ratio",
				"controller.observability.metrics.packing_efficiency_ratio.help=Share of a node's CPU requested.",
				"controller.observability.metrics.packing_efficiency_ratio.labels=provisioner",
				"controller.observability.metrics.packing_efficiency_ratio.buckets=0.25,0.5,0.75,0.9,1",
				"controller.observability.metrics.claim_size_bytes.type=histogram",
				"controller.observability.metrics.claim_size_bytes.unit=bytes",
				"controller.observability.metrics.claim_size_bytes.help=Memory requested by a claim.",
				"controller.observability.metrics.claim_size_bytes.buckets=1024,4096,1048576",
				"controller.observability.metrics.queue_wait_seconds.type=histogram",
				"controller.observability.metrics.queue_wait_seconds.unit=seconds",
				"controller.observability.metrics.queue_wait_seconds.help=Time a pod waited in the queue.",
				"controller.observability.metrics.clock_skew_seconds.type=histogram",
				"controller.observability.metrics.clock_skew_seconds.unit=seconds",
				"controller.observability.metrics.clock_skew_seconds.help=Skew of a node's clock.",
				"controller.observability.metrics.clock_skew_seconds.buckets=-1,-0.1,0,0.1,1",
				"management.metrics.distribution.slo.karpenter.packing_efficiency_ratio=0.6",
				"management.metrics.distribution.percentiles-histogram.karpenter=true" })
@AutoConfigureMetrics
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactHistogramsIntegrationTests {

	private static final double[] RATIOS = { 0.05, 0.3, 0.8, 0.95, 0.25, Math.nextUp(0.25), Math.nextDown(0.25), 0.5,
			Math.nextUp(0.5), 0.75, 0.9, Math.nextDown(0.9), 1.0, Math.nextUp(1.0), 1.5 };

	private static final double[] SIZES = { 0.5, 1023.5, 1024, Math.nextUp(1024.0), 4096, 4096.5, 1048576, 5e9 };

	private static final double[] WAITS = { 0.001, 0.005, Math.nextUp(0.005), 0.3, 59.9, 60, 61 };

	private static final double[] SKEWS = { -2, -1, Math.nextDown(-1.0), -0.1, -0.05, 0.05, 0.1, Math.nextUp(0.1), 0.99,
			3 };

	private static final Map<String, double[]> RECORDED = Map.of("karpenter_packing_efficiency_ratio", RATIOS,
			"karpenter_claim_size_bytes", SIZES, "karpenter_queue_wait_seconds", WAITS, "karpenter_clock_skew_seconds",
			SKEWS);

	private static final Map<String, List<Double>> BUCKETS = Map.of("karpenter_packing_efficiency_ratio",
			List.of(0.25, 0.5, 0.75, 0.9, 1.0), "karpenter_claim_size_bytes", List.of(1024.0, 4096.0, 1048576.0),
			"karpenter_queue_wait_seconds", MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS,
			"karpenter_clock_skew_seconds", List.of(-1.0, -0.1, 0.0, 0.1, 1.0));

	private static final Pattern SAMPLE = Pattern
		.compile("^(karpenter_\\w+?)_(bucket|count|sum)\\{([^}]*)\\} (\\S+).*$");

	private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerMetrics metrics;

	private PrometheusServer prometheus;

	@BeforeAll
	void recordThenScrape() {
		for (double ratio : RATIOS) {
			this.metrics.histogram("packing_efficiency_ratio", "provisioner", "gpu").observe(ratio);
		}
		for (double size : SIZES) {
			this.metrics.histogram("claim_size_bytes").observe(size);
		}
		for (double wait : WAITS) {
			this.metrics.histogram("queue_wait_seconds").observe(wait);
		}
		for (double skew : SKEWS) {
			this.metrics.histogram("clock_skew_seconds").observe(skew);
		}
		this.prometheus = PrometheusServer.scraping(this.port)
			.job("text", this.port, "/metrics-text")
			.flags("--enable-feature=native-histograms")
			.start()
			.awaitTargetsUp(Duration.ofSeconds(30));
		this.prometheus.awaitQuery("histogram_count(karpenter_packing_efficiency_ratio{job=\"controller\"})",
				(samples) -> samples.size() == 1, Duration.ofSeconds(30));
		this.prometheus.awaitQuery("karpenter_packing_efficiency_ratio_count{job=\"text\"}",
				(samples) -> samples.size() == 1, Duration.ofSeconds(30));
	}

	@AfterAll
	void stopPrometheus() {
		if (this.prometheus != null) {
			this.prometheus.close();
		}
	}

	@Test
	void countsEveryValueInItsTrueBucketInTheTextFormats() throws Exception {
		for (String accept : List.of("text/plain;version=0.0.4", "application/openmetrics-text;version=1.0.0")) {
			String text = new String(scrape(accept), StandardCharsets.UTF_8);
			Map<String, Read> read = readText(text);
			for (String family : RECORDED.keySet()) {
				assertThat(read.get(family)).as("%s in %s", family, accept).isEqualTo(expected(family));
			}
		}
	}

	@Test
	void countsEveryValueInItsTrueBucketInTheProtobufFormat() throws Exception {
		Map<String, Read> read = new TreeMap<>();
		for (ProtobufHistograms.Series series : ProtobufHistograms.read(
				scrape("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"))) {
			if (RECORDED.containsKey(series.family())) {
				assertThat(series.labels()).containsEntry("cluster", "dev").containsEntry("region", "eu");
				read.put(series.family(), new Read(series.buckets(), series.count(), series.sum()));
			}
		}
		for (String family : RECORDED.keySet()) {
			assertThat(read.get(family)).as(family).isEqualTo(expected(family));
		}
	}

	@Test
	void givesPrometheusTheCountSumAndFractionsOfTheValuesFromTheNativeBuckets() {
		String ratio = "karpenter_packing_efficiency_ratio{job=\"controller\",provisioner=\"gpu\"}";
		Read expected = expected("karpenter_packing_efficiency_ratio");
		assertThat(this.prometheus.queryScalar("histogram_count(" + ratio + ")")).isEqualTo(expected.count());
		assertThat(this.prometheus.queryScalar("histogram_sum(" + ratio + ")")).isCloseTo(expected.sum(),
				within(1e-12));
		// 0.5 and 1 are native bounds (2^(-8/8) and 2^(0/8)): the fractions below them
		// are exact.
		assertThat(this.prometheus.queryScalar("histogram_fraction(0, 0.5, " + ratio + ")"))
			.isCloseTo((double) expected.buckets().get(0.5) / expected.count(), within(1e-12));
		assertThat(this.prometheus.queryScalar("histogram_fraction(0, 1, " + ratio + ")"))
			.isCloseTo((double) expected.buckets().get(1.0) / expected.count(), within(1e-12));
		String skew = "karpenter_clock_skew_seconds{job=\"controller\"}";
		Read skews = expected("karpenter_clock_skew_seconds");
		assertThat(this.prometheus.queryScalar("histogram_count(" + skew + ")")).isEqualTo(skews.count());
		assertThat(this.prometheus.queryScalar("histogram_sum(" + skew + ")")).isCloseTo(skews.sum(), within(1e-12));
		// -1 and 1 are native bounds too; no value lies in the zero bucket.
		assertThat(this.prometheus.queryScalar("histogram_fraction(-1, 1, " + skew + ")")).isCloseTo(
				(double) (skews.buckets().get(1.0) - skews.buckets().get(-1.0) + 1) / skews.count(), within(1e-12));
	}

	@Test
	void keepsTheShapeOfAMicrometerHistogramButForTheMaxOfNegativeValues() throws Exception {
		String text = new String(scrape("text/plain;version=0.0.4"), StandardCharsets.UTF_8);
		assertThat(text)
			.contains("# HELP karpenter_packing_efficiency_ratio [ALPHA] Share of a node's CPU requested.",
					"# TYPE karpenter_packing_efficiency_ratio histogram",
					"karpenter_packing_efficiency_ratio_max{cluster=\"dev\",provisioner=\"gpu\",region=\"eu\"} 1.5",
					"karpenter_claim_size_bytes_max{cluster=\"dev\",region=\"eu\"} 5.0E9")
			.doesNotContain("karpenter_clock_skew_seconds_max");
	}

	@Test
	void keepsOnlyTheNativeFormWhereTheServerAsksForItOnPrometheus2() {
		assumeTrue(this.prometheus.selfMetrics().matches("(?s).*prometheus_build_info\\{[^}]*version=\"2\\..*"),
				"a Prometheus 2.x server");
		assertThat(this.prometheus.query("karpenter_packing_efficiency_ratio_count{job=\"controller\"}")).isEmpty();
		assertThat(this.prometheus.query("karpenter_packing_efficiency_ratio_count{job=\"text\"}")).hasSize(1);
	}

	@Test
	void givesPrometheusTheClassicBucketsInTheTextFormat() {
		Read expected = expected("karpenter_packing_efficiency_ratio");
		for (Map.Entry<Double, Long> bucket : expected.buckets().entrySet()) {
			String le = Double.isInfinite(bucket.getKey()) ? "+Inf" : bucket.getKey().toString();
			assertThat(this.prometheus
				.queryScalar("karpenter_packing_efficiency_ratio_bucket{job=\"text\",le=\"" + le + "\"}"))
				.as("le=%s", le)
				.isEqualTo(bucket.getValue().doubleValue());
		}
		assertThat(this.prometheus.queryScalar("karpenter_packing_efficiency_ratio_max{job=\"text\"}")).isEqualTo(1.5);
	}

	/**
	 * The model: how many values are not above each bound, how many in all, and their sum
	 * in the order recorded.
	 */
	private static Read expected(String family) {
		double[] values = RECORDED.get(family);
		List<Double> bounds = new ArrayList<>(BUCKETS.get(family));
		bounds.add(Double.POSITIVE_INFINITY);
		Map<Double, Long> counts = new LinkedHashMap<>();
		for (double bound : bounds) {
			long count = 0;
			for (double value : values) {
				count += (value <= bound) ? 1 : 0;
			}
			counts.put(bound, count);
		}
		double sum = 0;
		for (double value : values) {
			sum += value;
		}
		return new Read(counts, values.length, sum);
	}

	private static Map<String, Read> readText(String text) {
		Map<String, Map<Double, Long>> buckets = new TreeMap<>();
		Map<String, Long> counts = new TreeMap<>();
		Map<String, Double> sums = new TreeMap<>();
		for (String line : text.split("\n")) {
			Matcher sample = SAMPLE.matcher(line);
			if (!sample.matches() || !RECORDED.containsKey(sample.group(1))) {
				continue;
			}
			Map<String, String> labels = new TreeMap<>();
			Matcher label = LABEL.matcher(sample.group(3));
			while (label.find()) {
				labels.put(label.group(1), label.group(2));
			}
			assertThat(labels).as(line).containsEntry("cluster", "dev").containsEntry("region", "eu");
			String family = sample.group(1);
			double value = Double.parseDouble(sample.group(4));
			switch (sample.group(2)) {
				case "bucket" -> buckets.computeIfAbsent(family, (key) -> new LinkedHashMap<>())
					.put(number(labels.get("le")), (long) value);
				case "count" -> counts.put(family, (long) value);
				default -> sums.put(family, value);
			}
		}
		Map<String, Read> read = new TreeMap<>();
		buckets.forEach((family, bucket) -> read.put(family, new Read(bucket, counts.get(family), sums.get(family))));
		return read;
	}

	private static double number(String text) {
		return "+Inf".equals(text) ? Double.POSITIVE_INFINITY : Double.parseDouble(text);
	}

	private byte[] scrape(String accept) throws Exception {
		HttpResponse<byte[]> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/prometheus"))
				.header("Accept", accept)
				.build(), HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	/** A histogram series as read: cumulative counts by bound, count and sum. */
	private record Read(Map<Double, Long> buckets, long count, double sum) {
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(MinimalAppPrometheusIntegrationTests.TextFormatEndpoint.class)
	static class TestApplication {

	}

}
