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
	 * Records one observation, in the metric's unit.
	 * @param value the observed value
	 */
	void observe(double value);

}
