package dev.controllerobservability.catalog;

/**
 * One series of a declared counter. Never throws: a failure is counted and logged.
 */
public interface MetricCounter {

	/** A counter that records nothing, for hidden and disabled metrics. */
	MetricCounter NOOP = (amount) -> {
	};

	/** Adds one. */
	default void increment() {
		increment(1);
	}

	/**
	 * Adds an amount.
	 * @param amount a non-negative amount
	 */
	void increment(double amount);

}
