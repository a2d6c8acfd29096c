package dev.controllerobservability.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import org.springframework.context.ConfigurableApplicationContext;

import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.internal.operations.OperationRecorder;

/**
 * Measurements that each need a JVM of their own, started by {@link ProbeProcess}; prints
 * {@code RESULT <name> <value>} lines.
 * <ul>
 * <li>{@code startup starter|without-starter}: {@code startup-ms}, the time
 * {@link StartupApplications#start(String)} takes in this fresh JVM (up to a ready
 * application), then {@code heap-after-start}, the heap used after that start-up and a
 * full collection;</li>
 * <li>{@code series N}: heap retained per operation series (duration histogram with the
 * 40 default buckets, its success timer and the in-flight gauge), from the used heap
 * after a full collection before and after creating N series on the direct path.</li>
 * </ul>
 */
public final class JvmProbe {

	private JvmProbe() {
	}

	public static void main(String[] args) throws Exception {
		switch (args[0]) {
			case "startup" -> {
				long started = System.nanoTime();
				ConfigurableApplicationContext context = StartupApplications.start(args[1]);
				long took = System.nanoTime() - started;
				System.out.println("RESULT startup-ms " + took / 1e6);
				System.out.println("RESULT heap-after-start " + usedAfterGc());
				context.close();
			}
			case "series" -> System.out.println("RESULT heap-per-series " + bytesPerSeries(Integer.parseInt(args[1])));
			default -> throw new IllegalArgumentException("Unknown probe '" + args[0] + "'; use startup or series");
		}
	}

	private static double bytesPerSeries(int count) throws InterruptedException {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		registry.config().meterFilter(new ControllerMeterFilter(NamingPolicy.builder("bench").build()));
		RecordingFailures failures = new RecordingFailures(registry, "bench", Duration.ofMinutes(1));
		OperationRecorder handler = new OperationRecorder(registry, failures);
		ControllerOperations operations = ControllerOperations.builder(ObservationRegistry.create(), failures)
			.labelKeys(List.of("provisioner"))
			.namespace("bench")
			.directRecording(handler, List.of())
			.build();
		List<Tags> tags = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			tags.add(Tags.of("provisioner", "provisioner-" + i));
		}
		// One series first, so that classes and shared structures are not counted.
		operations.observe("reconcile", Tags.of("provisioner", "warm-up"), () -> 0);
		long before = usedAfterGc();
		for (Tags labels : tags) {
			operations.observe("reconcile", labels, () -> 0);
		}
		long after = usedAfterGc();
		Reference.reachabilityFence(operations);
		Reference.reachabilityFence(handler);
		if (registry.find("bench.reconcile.duration").timers().size() != count + 1) {
			throw new IllegalStateException("Expected " + (count + 1) + " series");
		}
		return (double) (after - before) / count;
	}

	private static long usedAfterGc() throws InterruptedException {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			System.gc();
			Thread.sleep(100);
			used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
		}
		return used;
	}

}
