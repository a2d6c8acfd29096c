package dev.controllerobservability.internal.operations;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import dev.controllerobservability.operations.OperationDescriptor;

/**
 * Where operation durations are recorded: Micrometer timers ({@link #micrometer}), or
 * Prometheus histograms with native buckets ({@link PrometheusDurations}). The in-flight
 * gauges are Micrometer gauges either way.
 */
public interface OperationDurations {

	/**
	 * Registers the duration series of one outcome of an operation.
	 * @param descriptor the operation
	 * @param labels every label key of the operation with its value
	 * @param result the {@code result} label value
	 * @param error the {@code error} label value
	 * @return what records into the series
	 */
	Recorder register(OperationDescriptor descriptor, Tags labels, String result, String error);

	/**
	 * Registers a duration series only the caller records into: the success series of one
	 * label set of an operation. A backend that can keep it to the caller returns a
	 * recorder that {@linkplain Recorder#countsOwnCalls() counts the calls}, so that the
	 * in-flight gauge needs no second atomic update per call; any other backend the
	 * recorder of {@link #register}.
	 * @param descriptor the operation
	 * @param labels every label key of the operation with its value
	 * @param result the {@code result} label value
	 * @param error the {@code error} label value
	 * @return what records into the series
	 */
	default Recorder registerOwn(OperationDescriptor descriptor, Tags labels, String result, String error) {
		return register(descriptor, labels, result, error);
	}

	/**
	 * Whether an operation's duration histogram comes with a {@code _max} gauge.
	 * @param descriptor the operation
	 * @return whether {@code <...>_duration_seconds_max} is exposed
	 */
	boolean exposesMax(OperationDescriptor descriptor);

	/**
	 * Durations as Micrometer timers, with everything Micrometer applies to them: meter
	 * filters, {@code management.metrics.distribution.*}, every registry and the
	 * {@code _max} gauge.
	 * @param registry where the timers are registered
	 * @return the durations
	 */
	static OperationDurations micrometer(MeterRegistry registry) {
		return new MicrometerDurations(registry);
	}

	/**
	 * Records the durations of one series.
	 */
	@FunctionalInterface
	interface Recorder {

		/**
		 * Records one duration.
		 * @param nanos the duration in nanoseconds
		 */
		void record(long nanos);

		/**
		 * Whether {@link #count()} is exactly the calls recorded through this recorder:
		 * each one counted when {@link #record} returns, none when it throws, and nothing
		 * else recorded into its series.
		 * @return {@code false} unless the backend keeps the series to this recorder
		 */
		default boolean countsOwnCalls() {
			return false;
		}

		/**
		 * The calls recorded, when {@link #countsOwnCalls()}.
		 * @return the count
		 */
		default long count() {
			throw new UnsupportedOperationException("This recorder does not count its calls");
		}

	}

}
