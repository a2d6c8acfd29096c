package dev.controllerobservability.catalog;

/**
 * Computes a declared gauge's series from controller state at scrape time. Series it no
 * longer reports disappear from the scrape. Example:
 *
 * <pre>{@code
 * metrics.collect("pods_by_phase", (samples) -> cluster.podsByPhase().forEach((key, count) ->
 *         samples.add(count, "provisioner", key.provisioner(), "phase", key.phase())));
 * }</pre>
 */
@FunctionalInterface
public interface MetricCollector {

	/**
	 * Reports the current series.
	 * @param samples where to report them
	 */
	void collect(Samples samples);

	/**
	 * Receives the series of one collection.
	 */
	@FunctionalInterface
	interface Samples {

		/**
		 * Reports one series.
		 * @param value its value
		 * @param labelKeyValues every declared label key, each followed by its value
		 */
		void add(double value, String... labelKeyValues);

	}

}
