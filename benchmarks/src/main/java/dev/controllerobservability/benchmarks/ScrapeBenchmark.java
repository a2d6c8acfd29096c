package dev.controllerobservability.benchmarks;

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
import dev.controllerobservability.operations.ControllerOperations;

/**
 * One Prometheus scrape of a registry holding {@code series} operation series (a duration
 * histogram with the 40 default buckets and an in-flight gauge each): the starter's
 * auto-configured registry, the series created by {@code ControllerOperations}, against a
 * stock {@code PrometheusMeterRegistry} with the same meters registered by hand.
 * {@link RunBenchmarks} runs the forks of the two registries in turns
 * ({@link InterleavedForks}) with a collection between iterations; on JMH's command line,
 * add {@code -gc true}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 3)
// A scrape of 50,000 series allocates about 1.7 GB, a 200 MB string included. With
// a 4 GiB heap, collections ran while scrapes were timed and forked JVMs differed
// by up to 300 ms. A pre-touched 12 GiB heap with a 10 GiB young generation holds
// an iteration's garbage (up to about 5 GB, three scrapes of 50,000 series), and
// InterleavedForks collects between iterations, so that no collection is timed.
// Each JVM settles at a level of its own (5 to 6 % apart): six short forks a side.
@Fork(value = 6, jvmArgsAppend = { "-Xms12g", "-Xmx12g", "-Xmn10g", "-XX:+UseParallelGC", "-XX:+AlwaysPreTouch",
		"-Djava.awt.headless=true" })
public class ScrapeBenchmark {

	/**
	 * The values of {@link #series} that {@link RunBenchmarks} runs: 50,000 series is
	 * measured in each format by {@link ScrapeFormatsBenchmark}, and its forks here would
	 * take the scrape part of a run past its budget of about 15 minutes.
	 */
	static final List<String> SERIES = List.of("1000", "10000");

	/** The values of {@link #registry}. */
	static final List<String> REGISTRIES = List.of("starter", "stock");

	@Param({ "1000", "10000", "50000" })
	public int series;

	@Param({ "starter", "stock" })
	public String registry;

	private ConfigurableApplicationContext context;

	private PrometheusMeterRegistry prometheus;

	@Setup
	public void setUp() {
		if (this.registry.equals("starter")) {
			this.context = BenchmarkApplication.start(Map.of());
			this.prometheus = starterSeries(this.context, this.series);
		}
		else {
			this.prometheus = stockRegistry(this.series);
		}
		String scrape = this.prometheus.scrape();
		if (!scrape.contains("bench_reconcile_duration_seconds_bucket{error=\"none\",provisioner=\"provisioner-"
				+ (this.series - 1) + "\"")) {
			throw new IllegalStateException("The " + this.registry + " registry does not expose every series");
		}
	}

	/**
	 * Creates operation series in the starter's application, as a controller would.
	 * @param context the application
	 * @param series how many
	 * @return its registry
	 */
	static PrometheusMeterRegistry starterSeries(ConfigurableApplicationContext context, int series) {
		ControllerOperations operations = context.getBean(ControllerOperations.class);
		for (int i = 0; i < series; i++) {
			operations.observe("reconcile", Tags.of("provisioner", "provisioner-" + i), () -> 0);
		}
		return context.getBean(PrometheusMeterRegistry.class);
	}

	/**
	 * A stock registry with the meters of operation series registered by hand.
	 * @param series how many
	 * @return the registry
	 */
	static PrometheusMeterRegistry stockRegistry(int series) {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		Duration[] buckets = BucketRules.durations(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS);
		for (int i = 0; i < series; i++) {
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
		return prometheus;
	}

	@TearDown
	public void tearDown() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Benchmark
	public String scrape() {
		return this.prometheus.scrape();
	}

}
