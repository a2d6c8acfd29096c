package dev.controllerobservability.internal.operations;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * The meters of one operation for one set of label values: the in-flight gauge and a
 * duration series per outcome ({@code result="success",error="none"} and one per error
 * type). Series are registered on first use and then reached without a lookup.
 * <p>
 * The cardinality limits apply to outcomes here, where the observation path and the
 * direct path meet: the {@code error} label passes the per-label limits of the duration
 * histogram, and the histogram's series cap counts label sets with {@code result} and
 * {@code error}; beyond it an outcome is recorded into the series whose every label is
 * {@code overflow}. Every call recorded with a value {@code unexpected} or into the
 * overflow series is counted, whether its labels were resolved for it or long before (a
 * handle, remembered tags).
 */
public final class OperationSeries {

	private final OperationDurations durations;

	private final OperationDescriptor descriptor;

	private final Tags labels;

	private final @Nullable CardinalityLimiter limiter;

	/** How many of the operation tag values are {@code unexpected}. */
	private final int unexpectedTags;

	/** Whether the operation tags went to the in-flight gauge's overflow series. */
	private final boolean overflowTags;

	private final AtomicLong inFlight = new AtomicLong();

	private volatile @Nullable Outcome success;

	private final Map<Class<?>, Outcome> failures = new ConcurrentHashMap<>();

	OperationSeries(MeterRegistry registry, OperationDurations durations, OperationDescriptor descriptor, Tags labels,
			@Nullable CardinalityLimiter limiter) {
		this.durations = durations;
		this.descriptor = descriptor;
		this.labels = labels;
		this.limiter = limiter;
		int unexpected = 0;
		boolean overflow = false;
		for (Tag label : labels) {
			unexpected += CardinalityLimiter.UNEXPECTED.equals(label.getValue()) ? 1 : 0;
			overflow |= CardinalityLimiter.OVERFLOW.equals(label.getValue());
		}
		this.unexpectedTags = unexpected;
		this.overflowTags = overflow;
		Gauge.builder(descriptor.inFlightName(), this.inFlight, AtomicLong::get)
			.description(descriptor.inFlightDescription())
			.tags(labels)
			.strongReference(true)
			.register(registry);
	}

	public AtomicLong inFlight() {
		return this.inFlight;
	}

	/**
	 * Records the duration of one call.
	 * @param error what the operation threw, or {@code null} when it succeeded
	 * @param nanos how long it took, in nanoseconds
	 */
	public void record(@Nullable Throwable error, long nanos) {
		Outcome outcome = outcome(error);
		outcome.recorder.record(nanos);
		if (outcome.unexpected != 0 || outcome.overflow) {
			count(outcome);
		}
	}

	private void count(Outcome outcome) {
		if (this.limiter != null) {
			this.limiter.countUnexpected(outcome.unexpected);
			if (outcome.overflow) {
				this.limiter.countOverflow(this.descriptor.familyName());
			}
		}
	}

	private Outcome outcome(@Nullable Throwable error) {
		if (error == null) {
			Outcome outcome = this.success;
			if (outcome == null) {
				outcome = register(MetricConventions.SUCCESS, MetricConventions.NONE);
				this.success = outcome;
			}
			return outcome;
		}
		Outcome outcome = this.failures.get(error.getClass());
		return (outcome != null) ? outcome : this.failures.computeIfAbsent(error.getClass(),
				(type) -> register(MetricConventions.ERROR, OperationContext.errorLabel(error)));
	}

	private Outcome register(String result, String error) {
		if (this.limiter == null) {
			return new Outcome(this.durations.register(this.descriptor, this.labels, result, error), 0, false);
		}
		String family = this.descriptor.familyName();
		String errorValue = error;
		int unexpected = this.unexpectedTags;
		if (MetricConventions.ERROR.equals(result)) {
			errorValue = this.limiter.categorizeUncounted(family, MetricConventions.ERROR_LABEL, error);
			unexpected += (errorValue == CardinalityLimiter.UNEXPECTED) ? 1 : 0;
		}
		String[] keyValues = new String[2 * (int) this.labels.stream().count() + 4];
		int i = 0;
		for (Tag label : this.labels) {
			keyValues[i++] = label.getKey();
			keyValues[i++] = label.getValue();
		}
		keyValues[i++] = MetricConventions.RESULT_LABEL;
		keyValues[i++] = result;
		keyValues[i++] = MetricConventions.ERROR_LABEL;
		keyValues[i] = errorValue;
		boolean admitted = this.limiter.admitOrOverflow(family, keyValues);
		Tags tags = Tags.empty();
		for (int k = 0; k < keyValues.length - 4; k += 2) {
			tags = tags.and(keyValues[k], keyValues[k + 1]);
		}
		OperationDurations.Recorder recorder = this.durations.register(this.descriptor, tags,
				keyValues[keyValues.length - 3], keyValues[keyValues.length - 1]);
		return new Outcome(recorder, unexpected, this.overflowTags || !admitted);
	}

	/**
	 * The duration series of one outcome, and what each call recorded into it counts.
	 */
	private record Outcome(OperationDurations.Recorder recorder, int unexpected, boolean overflow) {
	}

}
