package dev.controllerobservability.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * Start-up of one controller ({@link StartupApplications}) with the starter's
 * auto-configurations and without them, each in a fresh JVM (one cold start per fork), up
 * to a ready application: web server started, operator's informers synced, start-up
 * checks done.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(value = 10, jvmArgsAppend = { "-Xmx1g", "-Djava.awt.headless=true" })
public class StartupBenchmark {

	@Param({ "starter", "without-starter" })
	public String application;

	private ConfigurableApplicationContext context;

	@Benchmark
	public ConfigurableApplicationContext start() {
		this.context = StartupApplications.start(this.application);
		return this.context;
	}

	@TearDown(Level.Iteration)
	public void stop() {
		if (this.context != null) {
			this.context.close();
		}
	}

}
