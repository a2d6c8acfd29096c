package dev.controllerobservability.catalog;

/**
 * One series of a declared histogram or summary. Never throws.
 */
@FunctionalInterface
public interface MetricHistogram {

	/** A histogram that records nothing, for hidden and disabled metrics. */
	MetricHistogram NOOP = (value) -> {
	};

	/**
	 * Records one observation, in the metric's unit. A negative, NaN or infinite value is
	 * not recorded and is counted as a recording failure.
	 * @param value the observed value, finite and 0 or more
	 */
	void observe(double value);

}
