package dev.controllerobservability.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Tags;
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

import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.live.LiveMetrics;

/**
 * What the {@code controllermetrics} and {@code controllermetricslint} endpoints cost
 * against the scrape itself, on the starter's registry with {@code series} operation
 * series: computing the reference or the lint report from a fresh scrape (what every call
 * cost before results were reused, and what a call still costs after a meter was added or
 * removed), and a repeated call while the meters are unchanged. Not part of
 * {@link RunBenchmarks}; run it on its own with JMH's {@code Main}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch", "-Djava.awt.headless=true" })
public class ReferenceAndLintBenchmark {

	@Param({ "10000" })
	public int series;

	private ConfigurableApplicationContext context;

	private PrometheusMeterRegistry prometheus;

	private LiveMetrics liveMetrics;

	private MetricsLinter linter;

	@Setup
	public void setUp() {
		this.context = BenchmarkApplication.start(Map.of());
		this.prometheus = this.context.getBean(PrometheusMeterRegistry.class);
		this.liveMetrics = this.context.getBean(LiveMetrics.class);
		this.linter = this.context.getBean(MetricsLinter.class);
		ControllerOperations operations = this.context.getBean(ControllerOperations.class);
		for (int i = 0; i < this.series; i++) {
			operations.observe("reconcile", Tags.of("provisioner", "provisioner-" + i), () -> 0);
		}
	}

	@TearDown
	public void tearDown() {
		this.context.close();
	}

	@Benchmark
	public String scrape() {
		return this.prometheus.scrape();
	}

	@Benchmark
	public MetricsReference referenceFromAFreshScrape() {
		return MetricsReference.of(this.liveMetrics.exposition(), this.liveMetrics.declaredFamilies(),
				this.linter::isFramework);
	}

	@Benchmark
	public LintReport lintFromAFreshScrape() {
		return this.liveMetrics.lint(this.liveMetrics.exposition());
	}

	@Benchmark
	public MetricsReference referenceRepeated() {
		return this.liveMetrics.reference();
	}

	@Benchmark
	public LintReport lintRepeated() {
		return this.liveMetrics.lint();
	}

}
