package dev.controllerobservability.kubernetes.operator;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.controllerobservability.kubernetes.KubernetesConventions;
import dev.controllerobservability.kubernetes.operator.ControllerRuntimeMetrics.ReconcileResult;
import dev.controllerobservability.metrics.BucketRules;
import dev.controllerobservability.metrics.MetricConventions;

/**
 * The controller-runtime meters of one controller, and the state they are derived from.
 * The SDK calls its hooks for one reconciliation on one thread (from
 * {@code reconciliationExecutionStarted} to {@code reconciliationExecutionFinished}), so
 * per-execution state is kept by thread.
 */
final class ControllerRuntimeMeters {

	private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

	private final LongSupplier nanoTime;

	private final Map<ReconcileResult, Counter> reconciles = new EnumMap<>(ReconcileResult.class);

	private final Counter errors;

	private final Counter terminalErrors;

	private final Timer reconcileTime;

	private final Counter adds;

	private final Counter retries;

	private final Timer queueDuration;

	private final Timer workDuration;

	private final AtomicInteger maxConcurrentReconciles = new AtomicInteger();

	/** Resources with an event waiting, by the time the first waiting event arrived. */
	private final Map<ResourceID, Long> waiting = new ConcurrentHashMap<>();

	/** Resources handed to the reconciliation pool, by the time their wait began. */
	private final Map<ResourceID, Long> submitted = new ConcurrentHashMap<>();

	/** Reconciliations in progress, by the start of their work. */
	private final Map<Thread, Long> working = new ConcurrentHashMap<>();

	/** Threads whose reconciliation failed and has no retry or new attempt scheduled yet. */
	private final Set<Thread> failedWithoutRetry = ConcurrentHashMap.newKeySet();

	ControllerRuntimeMeters(MeterRegistry registry, String controller, LongSupplier nanoTime) {
		this.nanoTime = nanoTime;
		Tags controllerTag = Tags.of("controller", controller);
		for (ReconcileResult result : ReconcileResult.values()) {
			this.reconciles.put(result, Counter.builder("controller.runtime.reconcile")
				.description("Total number of reconciliations per controller")
				.tags(controllerTag)
				.tag("result", result.label())
				.register(registry));
		}
		this.errors = Counter.builder("controller.runtime.reconcile.errors")
			.description("Total number of reconciliation errors per controller")
			.tags(controllerTag)
			.register(registry);
		this.terminalErrors = Counter.builder("controller.runtime.terminal.reconcile.errors")
			.description("Total number of terminal reconciliation errors per controller")
			.tags(controllerTag)
			.register(registry);
		this.reconcileTime = Timer.builder("controller.runtime.reconcile.time")
			.description("Length of time per reconciliation per controller")
			.tags(controllerTag)
			.serviceLevelObjectives(BucketRules.durations(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS))
			.register(registry);
		Gauge.builder("controller.runtime.active.workers", this.working, Map::size)
			.description("Number of currently used workers per controller")
			.tags(controllerTag)
			.register(registry);
		Gauge.builder("controller.runtime.max.concurrent.reconciles", this.maxConcurrentReconciles,
				AtomicInteger::get)
			.description("Maximum number of concurrent reconciles per controller")
			.tags(controllerTag)
			.register(registry);
		Tags queueTags = Tags.of("name", controller, "controller", controller);
		this.adds = Counter.builder("workqueue.adds")
			.description("Total number of adds handled by workqueue")
			.tags(queueTags)
			.register(registry);
		this.retries = Counter.builder("workqueue.retries")
			.description("Total number of retries handled by workqueue")
			.tags(queueTags)
			.register(registry);
		Gauge.builder("workqueue.depth", this, ControllerRuntimeMeters::depth)
			.description("Current depth of workqueue")
			.tags(queueTags)
			.register(registry);
		this.queueDuration = Timer.builder("workqueue.queue.duration")
			.description("How long in seconds an item stays in workqueue before being requested")
			.tags(queueTags)
			.serviceLevelObjectives(BucketRules.durations(KubernetesConventions.WORKQUEUE_BUCKETS))
			.register(registry);
		this.workDuration = Timer.builder("workqueue.work.duration")
			.description("How long in seconds processing an item from workqueue takes.")
			.tags(queueTags)
			.serviceLevelObjectives(BucketRules.durations(KubernetesConventions.WORKQUEUE_BUCKETS))
			.register(registry);
		Gauge.builder("workqueue.unfinished.work.seconds", this, ControllerRuntimeMeters::unfinishedWorkSeconds)
			.description("How many seconds of work has been done that is in progress and hasn't been observed by "
					+ "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
					+ "threads by observing the rate at which this increases.")
			.tags(queueTags)
			.register(registry);
		Gauge.builder("workqueue.longest.running.processor.seconds", this,
				ControllerRuntimeMeters::longestRunningProcessorSeconds)
			.description("How many seconds has the longest running processor for workqueue been running.")
			.tags(queueTags)
			.register(registry);
	}

	void maxConcurrentReconciles(int threads) {
		this.maxConcurrentReconciles.set(threads);
	}

	void added(ResourceID resource, long now) {
		if (this.waiting.putIfAbsent(resource, now) == null) {
			this.adds.increment();
		}
	}

	void submitted(ResourceID resource) {
		// A new attempt right after a failure (a newer event arrived meanwhile) is no terminal error.
		this.failedWithoutRetry.remove(Thread.currentThread());
		Long since = this.waiting.remove(resource);
		this.submitted.put(resource, (since != null) ? since : this.nanoTime.getAsLong());
	}

	void started(ResourceID resource, long now) {
		Long since = this.submitted.remove(resource);
		if (since != null) {
			this.queueDuration.record(now - since, TimeUnit.NANOSECONDS);
		}
		this.failedWithoutRetry.remove(Thread.currentThread());
		this.working.put(Thread.currentThread(), now);
	}

	void succeeded(long nanos, ReconcileResult result) {
		this.reconciles.get(result).increment();
		this.reconcileTime.record(nanos, TimeUnit.NANOSECONDS);
	}

	void failed(long nanos) {
		this.reconciles.get(ReconcileResult.ERROR).increment();
		this.errors.increment();
		this.reconcileTime.record(nanos, TimeUnit.NANOSECONDS);
		this.failedWithoutRetry.add(Thread.currentThread());
	}

	void retryScheduled() {
		this.retries.increment();
		this.failedWithoutRetry.remove(Thread.currentThread());
	}

	void finished(ResourceID resource, long now) {
		// The SDK also calls this when it skipped the reconciliation (resource gone from its cache).
		this.submitted.remove(resource);
		Long start = this.working.remove(Thread.currentThread());
		if (start != null) {
			this.workDuration.record(now - start, TimeUnit.NANOSECONDS);
		}
		if (this.failedWithoutRetry.remove(Thread.currentThread())) {
			this.terminalErrors.increment();
		}
	}

	void forget(ResourceID resource) {
		this.waiting.remove(resource);
		this.submitted.remove(resource);
	}

	private double depth() {
		return this.waiting.size() + this.submitted.size();
	}

	private double unfinishedWorkSeconds() {
		long now = this.nanoTime.getAsLong();
		long total = 0;
		for (long start : this.working.values()) {
			total += now - start;
		}
		return total / NANOS_PER_SECOND;
	}

	private double longestRunningProcessorSeconds() {
		long now = this.nanoTime.getAsLong();
		long longest = 0;
		for (long start : this.working.values()) {
			longest = Math.max(longest, now - start);
		}
		return longest / NANOS_PER_SECOND;
	}

}
