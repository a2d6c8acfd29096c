package dev.controllerobservability.autoconfigure;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.test.CapturedLog;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/prometheus} in each of its three formats, with and without
 * {@code ?includedNames=}: the filtered scrape answers with the families asked for and
 * nothing else, the catalog's collectors run exactly once per scrape either way, and
 * nothing is logged at WARN or above.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "controller.observability.namespace=karpenter",
				"controller.observability.metrics.queue_depth.type=gauge",
				"controller.observability.metrics.queue_depth.help=Depth of the work queue.",
				"controller.observability.metrics.queue_depth.labels=queue" })
@AutoConfigureMetrics
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilteredScrapeIntegrationTests {

	private static final String INCLUDED = "jvm_threads_live_threads";

	private static final String COLLECTED = "karpenter_queue_depth";

	@RegisterExtension
	final CapturedLog log = CapturedLog.everything();

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerMetrics metrics;

	private final AtomicInteger refreshes = new AtomicInteger();

	@BeforeAll
	void collectTheQueueDepth() {
		this.metrics.collect("queue_depth",
				(samples) -> samples.add(this.refreshes.incrementAndGet(), "queue", "pods"));
	}

	static Stream<Arguments> scrapes() {
		return Stream.of(Format.values())
			.flatMap((format) -> Stream.of(false, true).map((filtered) -> Arguments.of(format, filtered)));
	}

	@ParameterizedTest(name = "{0}, filtered: {1}")
	@MethodSource("scrapes")
	void servesTheFamiliesAskedForAndRefreshesCollectorsOnce(Format format, boolean filtered) throws Exception {
		int before = this.refreshes.get();
		String query = filtered ? "?includedNames=" + INCLUDED + "," + COLLECTED : "";
		HttpResponse<byte[]> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/prometheus" + query))
				.header("Accept", format.accept)
				.build(), HttpResponse.BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith(format.contentType));
		Set<String> families = format.families(response.body());
		if (filtered) {
			assertThat(families).containsExactlyInAnyOrder(INCLUDED, COLLECTED);
		}
		else {
			assertThat(families).contains(INCLUDED, COLLECTED, "jvm_memory_used_bytes", "jvm_threads_peak_threads");
		}
		assertThat(this.refreshes).hasValue(before + 1);
		if (format != Format.PROTOBUF) {
			assertThat(new String(response.body(), StandardCharsets.UTF_8))
				.contains(COLLECTED + "{queue=\"pods\"} " + (before + 1) + ".0");
		}
		assertThat(this.log.events()).noneMatch((event) -> event.getLevel().isGreaterOrEqual(Level.WARN));
	}

	/** The three formats Boot's scrape endpoint serves, as Prometheus asks for them. */
	enum Format {

		TEXT("text/plain;version=0.0.4", "text/plain;version=0.0.4"),

		OPENMETRICS("application/openmetrics-text;version=1.0.0", "application/openmetrics-text;version=1.0.0"),

		PROTOBUF("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
				"application/vnd.google.protobuf");

		private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) ", Pattern.MULTILINE);

		private final String accept;

		private final String contentType;

		Format(String accept, String contentType) {
			this.accept = accept;
			this.contentType = contentType;
		}

		Set<String> families(byte[] body) throws IOException {
			Set<String> names = new LinkedHashSet<>();
			if (this == PROTOBUF) {
				DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
				while (in.available() > 0) {
					byte[] family = new byte[(int) varint(in)];
					in.readFully(family);
					names.add(name(family));
				}
			}
			else {
				Matcher type = TYPE.matcher(new String(body, StandardCharsets.UTF_8));
				while (type.find()) {
					names.add(type.group(1));
				}
			}
			return names;
		}

		// Field 1 of io.prometheus.client.MetricFamily; other fields are skipped by wire
		// type.
		private static String name(byte[] family) throws IOException {
			DataInputStream in = new DataInputStream(new ByteArrayInputStream(family));
			while (in.available() > 0) {
				long key = varint(in);
				int wireType = (int) (key & 7);
				switch (wireType) {
					case 0 -> varint(in);
					case 1 -> in.skipNBytes(8);
					case 5 -> in.skipNBytes(4);
					case 2 -> {
						byte[] value = new byte[(int) varint(in)];
						in.readFully(value);
						if (key >>> 3 == 1) {
							return new String(value, StandardCharsets.UTF_8);
						}
					}
					default -> throw new IOException("Unexpected wire type " + wireType);
				}
			}
			throw new IOException("A metric family without a name");
		}

		private static long varint(DataInputStream in) throws IOException {
			long value = 0;
			for (int shift = 0;; shift += 7) {
				int b = in.readUnsignedByte();
				value |= (long) (b & 0x7f) << shift;
				if ((b & 0x80) == 0) {
					return value;
				}
			}
		}

	}

	// No component scan: this package holds the auto-configuration itself.
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
