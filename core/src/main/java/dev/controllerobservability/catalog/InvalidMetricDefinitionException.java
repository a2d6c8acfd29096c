package dev.controllerobservability.catalog;

import dev.controllerobservability.InvalidDefinitionException;

/**
 * A metric definition the catalog cannot accept. Names the metric, the field, the value,
 * why, and the fix.
 */
public class InvalidMetricDefinitionException extends InvalidDefinitionException {

	/**
	 * Creates the exception.
	 * @param metric the declared metric name
	 * @param field the field, as written in configuration ({@code help},
	 * {@code deprecated-version}, ...), or {@code null} for the name itself
	 * @param value the bad value
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	public InvalidMetricDefinitionException(String metric, String field, Object value, String reason, String action) {
		super("Metric", metric, field, value, reason, action);
	}

	/**
	 * The declared metric name.
	 * @return the name
	 */
	public String getMetric() {
		return getSubject();
	}

}
