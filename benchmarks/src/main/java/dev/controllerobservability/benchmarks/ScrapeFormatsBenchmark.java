package dev.controllerobservability.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.context.ConfigurableApplicationContext;

import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.ScrapeFormat;
import dev.controllerobservability.internal.metrics.ScrapeWriter;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * One scrape, in each of the three formats, of a registry holding 50,000 operation series
 * (a duration histogram with the 40 default buckets and an in-flight gauge each): the
 * starter's auto-configured registry with {@code operations.backend=prometheus}, the
 * series created by {@code ControllerOperations} and written by {@link ScrapeWriter},
 * against a stock {@code PrometheusMeterRegistry} with the same meters registered by
 * hand, written as Spring Boot's endpoint writes it: the registry's snapshots through the
 * standard writer of the format. Both write into the same sink, which counts the bytes
 * and drops them, as a socket would take them. {@link RunBenchmarks} runs the forks of
 * the two registries in turns ({@link InterleavedForks}) with a collection between
 * iterations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
// A stock scrape of 50,000 series allocates up to about 1.6 GB and takes about 2 s: a
// 2-second iteration holds at most two, whose garbage a 6 GiB young generation holds,
// so that no collection is timed (InterleavedForks collects between iterations). The
// target is a ratio of 0.5, ten times the 5 % by which forks differ: three forks a side
// and three iterations each keep the scrape rows within their time budget.
@Fork(value = 3, jvmArgsAppend = { "-Xms8g", "-Xmx8g", "-Xmn6g", "-XX:+UseParallelGC", "-XX:+AlwaysPreTouch",
		"-Djava.awt.headless=true" })
public class ScrapeFormatsBenchmark {

	/** The series of every registry. */
	static final int SERIES = 50_000;

	/** The values of {@link #format}. */
	static final List<String> FORMATS = List.of("text", "openmetrics", "protobuf");

	/** The values of {@link #registry}. */
	static final List<String> REGISTRIES = List.of("starter", "stock");

	@Param({ "text", "openmetrics", "protobuf" })
	public String format;

	@Param({ "starter", "stock" })
	public String registry;

	private ConfigurableApplicationContext context;

	private Scrape scrape;

	@Setup
	public void setUp() throws IOException {
		ScrapeFormat scrapeFormat = switch (this.format) {
			case "text" -> ScrapeFormat.PROMETHEUS_TEXT;
			case "openmetrics" -> ScrapeFormat.OPENMETRICS_TEXT;
			case "protobuf" -> ScrapeFormat.PROMETHEUS_PROTOBUF;
			default -> throw new IllegalArgumentException("No format " + this.format);
		};
		PrometheusMeterRegistry prometheus;
		if (this.registry.equals("starter")) {
			this.context = BenchmarkApplication
				.start(Map.of("controller.observability.operations.backend", "prometheus"));
			prometheus = this.context.getBean(PrometheusMeterRegistry.class);
			ControllerOperations operations = this.context.getBean(ControllerOperations.class);
			for (int i = 0; i < SERIES; i++) {
				operations.observe("reconcile", Tags.of("provisioner", "provisioner-" + i), () -> 0);
			}
			ScrapeWriter writer = ScrapeWriter.of(prometheus.getPrometheusRegistry());
			this.scrape = (out) -> writer.write(scrapeFormat, null, out);
		}
		else {
			prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
			Duration[] buckets = BucketRules.durations(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS);
			for (int i = 0; i < SERIES; i++) {
				Tags labels = Tags.of("provisioner", "provisioner-" + i);
				Gauge.builder("bench.reconcile.in.flight", new AtomicLong(), AtomicLong::get)
					.description("Number of reconcile operations in flight.")
					.tags(labels)
					.strongReference(true)
					.register(prometheus);
				Timer.builder("bench.reconcile.duration")
					.description("Duration of reconcile operations in seconds.")
					.tags(labels.and("result", "success", "error", "none"))
					.serviceLevelObjectives(buckets)
					.register(prometheus)
					.record(1, TimeUnit.MILLISECONDS);
			}
			ExpositionFormats formats = ExpositionFormats.init();
			ExpositionFormatWriter writer = switch (scrapeFormat) {
				case PROMETHEUS_TEXT -> formats.getPrometheusTextFormatWriter();
				case OPENMETRICS_TEXT -> formats.getOpenMetricsTextFormatWriter();
				case PROMETHEUS_PROTOBUF -> formats.getPrometheusProtobufWriter();
			};
			this.scrape = (out) -> writer.write(out, prometheus.getPrometheusRegistry().scrape());
		}
		Sink sample = new Sink(true);
		this.scrape.writeTo(sample);
		String last = "provisioner-" + (SERIES - 1);
		for (String family : new String[] { "bench_reconcile_duration_seconds", "bench_reconcile_in_flight" }) {
			if (!sample.text().contains(family) || !sample.text().contains(last)) {
				throw new IllegalStateException("The " + this.registry + " registry does not expose every series");
			}
		}
	}

	@TearDown
	public void tearDown() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Benchmark
	public long scrape() throws IOException {
		Sink sink = new Sink(false);
		this.scrape.writeTo(sink);
		return sink.bytes;
	}

	@FunctionalInterface
	private interface Scrape {

		void writeTo(OutputStream out) throws IOException;

	}

	/** Counts what is written, and keeps it only to check it. */
	private static final class Sink extends OutputStream {

		private final StringBuilder kept;

		private long bytes;

		Sink(boolean keep) {
			this.kept = keep ? new StringBuilder() : null;
		}

		@Override
		public void write(int b) {
			this.bytes++;
			if (this.kept != null) {
				this.kept.append((char) b);
			}
		}

		@Override
		public void write(byte[] b, int off, int len) {
			this.bytes += len;
			if (this.kept != null) {
				this.kept.append(new String(b, off, len, StandardCharsets.ISO_8859_1));
			}
		}

		String text() {
			return this.kept.toString();
		}

	}

}
