package dev.controllerobservability.internal.kubernetes;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import dev.controllerobservability.internal.kubernetes.KubernetesConventions;

/**
 * The controller-runtime meters of one controller, and the state they are derived from.
 * The SDK calls its hooks for one reconciliation on one thread (from
 * {@code reconciliationExecutionStarted} to {@code reconciliationExecutionFinished}), so
 * per-execution state is kept by thread.
 */
public final class ControllerRuntimeMeters {

	private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

	private final LongSupplier nanoTime;

	private final BooleanSupplier processing;

	private final Map<ReconcileResult, Counter> reconciles = new EnumMap<>(ReconcileResult.class);

	private final Counter errors;

	private final Counter terminalErrors;

	private final Counter panics;

	private final ControllerRuntimeHistograms.Series histograms;

	private final Counter adds;

	private final Counter retries;

	private final AtomicInteger maxConcurrentReconciles = new AtomicInteger();

	private final MeterRegistry registry;

	private final Tags queueTags;

	/**
	 * {@code workqueue_depth} priorities with a series, as client-go keeps a series once
	 * set.
	 */
	private final Set<String> priorities = ConcurrentHashMap.newKeySet();

	/** Resources with an event waiting: the first waiting event's time and priority. */
	private final Map<ResourceID, Waiting> waiting = new ConcurrentHashMap<>();

	/**
	 * Resources handed to the reconciliation pool: when and at which priority their wait
	 * began.
	 */
	private final Map<ResourceID, Waiting> submitted = new ConcurrentHashMap<>();

	/** Reconciliations in progress, by the start of their work. */
	private final Map<Thread, Long> working = new ConcurrentHashMap<>();

	/** Threads whose reconciliation failed and whose retry has not been decided yet. */
	private final Set<Thread> failed = ConcurrentHashMap.newKeySet();

	/** Threads whose failed reconciliation the SDK finished without a retry. */
	private final Set<Thread> finishedWithoutRetry = ConcurrentHashMap.newKeySet();

	/**
	 * Registers the meters of one controller.
	 * @param registry where the counters and gauges go
	 * @param histograms the controller's histogram series
	 * @param controller the controller name
	 * @param nanoTime the clock
	 * @param processing whether the controller's event processing runs; events that
	 * arrive before it does come from the initial list of its watches
	 */
	public ControllerRuntimeMeters(MeterRegistry registry, ControllerRuntimeHistograms.Series histograms,
			String controller, LongSupplier nanoTime, BooleanSupplier processing) {
		this.registry = registry;
		this.histograms = histograms;
		this.nanoTime = nanoTime;
		this.processing = processing;
		Tags controllerTag = Tags.of("controller", controller);
		for (ReconcileResult result : ReconcileResult.values()) {
			this.reconciles.put(result,
					Counter.builder("controller.runtime.reconcile")
						.description("Total number of reconciliations per controller")
						.tags(controllerTag)
						.tag("result", result.label())
						.register(registry));
		}
		this.errors = counter("controller.runtime.reconcile.errors",
				"Total number of reconciliation errors per controller", controllerTag);
		this.terminalErrors = counter("controller.runtime.terminal.reconcile.errors",
				"Total number of terminal reconciliation errors per controller", controllerTag);
		this.panics = counter("controller.runtime.reconcile.panics",
				"Total number of reconciliation panics per controller", controllerTag);
		// The SDK has no reconciliation timeout: the series exists, as upstream pre-sets
		// it, and stays 0.
		counter("controller.runtime.reconcile.timeouts", "Total number of reconciliation timeouts per controller",
				controllerTag);
		Gauge.builder("controller.runtime.active.workers", this.working, Map::size)
			.description("Number of currently used workers per controller")
			.tags(controllerTag)
			.register(registry);
		Gauge.builder("controller.runtime.max.concurrent.reconciles", this.maxConcurrentReconciles, AtomicInteger::get)
			.description("Maximum number of concurrent reconciles per controller")
			.tags(controllerTag)
			.register(registry);
		this.queueTags = Tags.of("name", controller, "controller", controller);
		this.adds = counter("workqueue.adds", "Total number of adds handled by workqueue", this.queueTags);
		this.retries = counter("workqueue.retries",
				"Total number of items added to the workqueue with a non-zero delay (rate-limited requeues, "
						+ "explicit RequeueAfter or AddAfter calls)",
				this.queueTags);
		depthSeries(KubernetesConventions.DEFAULT_PRIORITY);
		Gauge.builder("workqueue.unfinished.work.seconds", this, ControllerRuntimeMeters::unfinishedWorkSeconds)
			.description("How many seconds of work has been done that is in progress and hasn't been observed by "
					+ "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
					+ "threads by observing the rate at which this increases.")
			.tags(this.queueTags)
			.register(registry);
		Gauge
			.builder("workqueue.longest.running.processor.seconds", this,
					ControllerRuntimeMeters::longestRunningProcessorSeconds)
			.description("How many seconds has the longest running processor for workqueue been running.")
			.tags(this.queueTags)
			.register(registry);
	}

	public void maxConcurrentReconciles(int threads) {
		this.maxConcurrentReconciles.set(threads);
	}

	public void added(ResourceID resource, long now) {
		String priority = this.processing.getAsBoolean() ? KubernetesConventions.DEFAULT_PRIORITY
				: KubernetesConventions.LOW_PRIORITY;
		if (this.waiting.putIfAbsent(resource, new Waiting(now, priority)) == null) {
			depthSeries(priority);
			this.adds.increment();
		}
	}

	public void submitted(ResourceID resource) {
		// A new attempt right after an error (a newer event arrived meanwhile) is the
		// re-add client-go rate-limits.
		if (this.failed.remove(Thread.currentThread())) {
			this.retries.increment();
		}
		Waiting since = this.waiting.remove(resource);
		this.submitted.put(resource, (since != null) ? since
				: new Waiting(this.nanoTime.getAsLong(), KubernetesConventions.DEFAULT_PRIORITY));
	}

	public void started(ResourceID resource, long now) {
		Waiting since = this.submitted.remove(resource);
		if (since != null) {
			this.histograms.queueDuration().observe((now - since.since()) / NANOS_PER_SECOND);
		}
		this.failed.remove(Thread.currentThread());
		this.finishedWithoutRetry.remove(Thread.currentThread());
		this.working.put(Thread.currentThread(), now);
	}

	public void succeeded(long nanos, ReconcileResult result) {
		this.reconciles.get(result).increment();
		if (result != ReconcileResult.SUCCESS) {
			// client-go counts every delayed re-add: Requeue is rate-limited,
			// RequeueAfter is an AddAfter.
			this.retries.increment();
		}
		this.histograms.reconcileTime().observe(nanos / NANOS_PER_SECOND);
	}

	public void failed(long nanos, boolean panic) {
		this.reconciles.get(ReconcileResult.ERROR).increment();
		this.errors.increment();
		if (panic) {
			this.panics.increment();
		}
		this.histograms.reconcileTime().observe(nanos / NANOS_PER_SECOND);
		this.failed.add(Thread.currentThread());
	}

	public void retryScheduled() {
		this.failed.remove(Thread.currentThread());
		this.retries.increment();
	}

	public void finishedReconciliation() {
		// Reached after an error only when the SDK will not retry it (updateErrorStatus
		// said so, or no retry).
		if (this.failed.remove(Thread.currentThread())) {
			this.finishedWithoutRetry.add(Thread.currentThread());
		}
	}

	public void finished(ResourceID resource, long now) {
		Long start = this.working.remove(Thread.currentThread());
		if (start != null) {
			this.histograms.workDuration().observe((now - start) / NANOS_PER_SECOND);
		}
		else {
			// The SDK also calls this when it skipped the reconciliation (resource gone
			// from its cache): that submission ends here. After a reconciliation that did
			// run, a submission of the same resource is a newer one (an immediate requeue
			// submitted from this thread) and waits for its own start.
			this.submitted.remove(resource);
		}
		// Still failed here: retries exhausted, or an Error escaped the SDK. Neither is a
		// terminal error.
		this.failed.remove(Thread.currentThread());
		if (this.finishedWithoutRetry.remove(Thread.currentThread())) {
			this.terminalErrors.increment();
		}
	}

	public void forget(ResourceID resource) {
		this.waiting.remove(resource);
		this.submitted.remove(resource);
		// A resource deleted during its failed reconciliation is not retried because it
		// is gone.
		this.finishedWithoutRetry.remove(Thread.currentThread());
	}

	private Counter counter(String name, String help, Tags tags) {
		return Counter.builder(name).description(help).tags(tags).register(this.registry);
	}

	private void depthSeries(String priority) {
		if (this.priorities.add(priority)) {
			Gauge.builder("workqueue.depth", this, (meters) -> meters.depth(priority))
				.description("Current depth of workqueue by workqueue and priority")
				.tags(this.queueTags)
				.tag("priority", priority)
				.register(this.registry);
		}
	}

	private double depth(String priority) {
		return count(this.waiting, priority) + count(this.submitted, priority);
	}

	private static long count(Map<ResourceID, Waiting> items, String priority) {
		return items.values().stream().filter((item) -> item.priority().equals(priority)).count();
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

	/**
	 * An item waiting in the queue.
	 *
	 * @param since when its wait began, in {@link System#nanoTime()} terms
	 * @param priority its {@code priority} label value
	 */
	private record Waiting(long since, String priority) {
	}

}
