package dev.controllerobservability.test;

import java.util.Map;

/**
 * One element of a PromQL instant vector.
 *
 * @param labels the series labels, {@code __name__} included when Prometheus returns it
 * @param value the sample value
 */
public record PrometheusSample(Map<String, String> labels, double value) {

	public PrometheusSample {
		labels = Map.copyOf(labels);
	}

}
