package dev.controllerobservability.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
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

import dev.controllerobservability.internal.metrics.ScrapeFormat;
import dev.controllerobservability.internal.metrics.ScrapeWriter;

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
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 2)
// A stock scrape of 50,000 series allocates up to about 1.6 GB and takes 2 s or more: a
// 2-second iteration holds at most two, whose garbage a 6 GiB young generation holds, so
// that no collection is timed (InterleavedForks collects between iterations). Setting up
// a fork (50,000 series, a pre-touched heap) takes longer than measuring it; the target
// is a ratio of 0.5, ten times the 5 % by which forks differ, so one warm-up and three
// measured iterations in two forks a side keep the scrape rows within their time budget.
@Fork(value = 2, jvmArgsAppend = { "-Xms8g", "-Xmx8g", "-Xmn6g", "-XX:+UseParallelGC", "-XX:+AlwaysPreTouch",
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
		if (this.registry.equals("starter")) {
			this.context = BenchmarkApplication
				.start(Map.of("controller.observability.operations.backend", "prometheus"));
			ScrapeWriter writer = ScrapeWriter
				.of(ScrapeBenchmark.starterSeries(this.context, SERIES).getPrometheusRegistry());
			this.scrape = (out) -> writer.write(scrapeFormat, null, out);
		}
		else {
			PrometheusRegistry stock = ScrapeBenchmark.stockRegistry(SERIES).getPrometheusRegistry();
			ExpositionFormats formats = ExpositionFormats.init();
			ExpositionFormatWriter writer = switch (scrapeFormat) {
				case PROMETHEUS_TEXT -> formats.getPrometheusTextFormatWriter();
				case OPENMETRICS_TEXT -> formats.getOpenMetricsTextFormatWriter();
				case PROMETHEUS_PROTOBUF -> formats.getPrometheusProtobufWriter();
			};
			this.scrape = (out) -> writer.write(out, stock.scrape());
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
