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
	 * Adds an amount. A negative, NaN or infinite amount adds nothing and is counted as a
	 * recording failure.
	 * @param amount a finite amount of 0 or more
	 */
	void increment(double amount);

}
