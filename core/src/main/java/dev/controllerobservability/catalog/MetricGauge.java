package dev.controllerobservability.catalog;

/**
 * One series of a declared gauge whose value the controller sets. Never throws.
 */
@FunctionalInterface
public interface MetricGauge {

	/** A gauge that records nothing, for hidden and disabled metrics. */
	MetricGauge NOOP = (value) -> {
	};

	/**
	 * Sets the value exposed from now on.
	 * @param value the value
	 */
	void set(double value);

}
