package dev.controllerobservability;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.controllerobservability.internal.metrics.SelfCounters;

/**
 * Where a failure to record a metric goes instead of the caller: it is counted in
 * {@code <namespace>_observability_errors_total} and logged, at most once per log
 * interval, with the number of failures suppressed since the last line. Nothing here
 * throws, even when the registry that should hold the counter is itself broken. Get it
 * from {@link ControllerObservability#failures()} (or the Spring bean) and hand it to the
 * Kubernetes integrations.
 * <p>
 * Example:
 *
 * <pre>{@code
 * try {
 *     timer.record(duration);
 * } catch (RuntimeException ex) {
 *     failures.record("record bind duration", ex);
 * }
 * }</pre>
 */
public final class RecordingFailures {

	private static final Logger logger = LoggerFactory.getLogger(RecordingFailures.class);

	private final long logIntervalNanos;

	private final LongSupplier nanoTime;

	private final AtomicLong total = new AtomicLong();

	private final AtomicLong suppressed = new AtomicLong();

	private final AtomicLong nextLogAt;

	private final Counter counter;

	/**
	 * Creates the failure sink and registers its counter, pre-set to 0.
	 * @param registry registry for {@code <namespace>.observability.errors}
	 * @param namespace the controller's namespace
	 * @param logInterval minimum time between two log lines
	 */
	public RecordingFailures(MeterRegistry registry, String namespace, Duration logInterval) {
		this(registry, namespace, logInterval, System::nanoTime);
	}

	RecordingFailures(MeterRegistry registry, String namespace, Duration logInterval, LongSupplier nanoTime) {
		this.logIntervalNanos = logInterval.toNanos();
		this.nanoTime = nanoTime;
		this.nextLogAt = new AtomicLong(nanoTime.getAsLong());
		this.counter = registerCounter(registry, namespace);
	}

	private static Counter registerCounter(MeterRegistry registry, String namespace) {
		return SelfCounters.register(registry, namespace + ".observability.errors",
				"Number of times recording a controller metric failed; the controller's own work was not affected.");
	}

	/**
	 * Records one failure. Never throws.
	 * @param action what was being recorded, for the log line
	 * @param failure what went wrong
	 */
	public void record(String action, Throwable failure) {
		this.total.incrementAndGet();
		try {
			if (this.counter != null) {
				this.counter.increment();
			}
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
		log(action, failure);
	}

	/**
	 * Records a failure caught while recording, unless the JVM itself is failing, which
	 * keeps propagating.
	 * @param action what was being recorded, for the log line
	 * @param failure what was caught
	 * @throws VirtualMachineError if {@code failure} is one
	 */
	public void recordUnlessFatal(String action, Throwable failure) {
		if (isFatal(failure)) {
			throw (VirtualMachineError) failure;
		}
		record(action, failure);
	}

	/**
	 * Whether a throwable must keep propagating even out of metric recording: the JVM
	 * itself is failing, and hiding that would help nobody.
	 * @param failure what was caught
	 * @return whether to rethrow it
	 */
	public static boolean isFatal(Throwable failure) {
		return failure instanceof VirtualMachineError;
	}

	/**
	 * Number of failures recorded since start, whether or not the counter could be
	 * incremented.
	 * @return the failure count
	 */
	public long count() {
		return this.total.get();
	}

	private void log(String action, Throwable failure) {
		long now = this.nanoTime.getAsLong();
		long due = this.nextLogAt.get();
		if (now - due < 0 || !this.nextLogAt.compareAndSet(due, now + this.logIntervalNanos)) {
			this.suppressed.incrementAndGet();
			return;
		}
		try {
			long skipped = this.suppressed.getAndSet(0);
			logger.warn(
					"Controller metric recording failed ({}); the controller's work is unaffected. {} similar "
							+ "failure(s) were not logged since the last report; next report in {}s at the earliest.",
					action, skipped, Duration.ofNanos(this.logIntervalNanos).toSeconds(), failure);
		}
		catch (RuntimeException ex) {
			// A broken logging backend must not reach the caller either.
		}
	}

}
