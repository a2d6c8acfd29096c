package dev.controllerobservability.catalog;

/**
 * A metric definition the catalog cannot accept. Names the metric, the field, the value,
 * why, and the fix.
 */
public class InvalidMetricDefinitionException extends IllegalArgumentException {

	private final String metric;

	private final String field;

	private final Object value;

	private final String reason;

	private final String action;

	/**
	 * Creates the exception.
	 * @param metric the declared metric name
	 * @param field the field, as written in configuration ({@code help},
	 * {@code deprecated-version}, ...), or {@code null} for the name itself
	 * @param value the bad value
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	public InvalidMetricDefinitionException(String metric, String field, Object value, String reason,
			String action) {
		super("Metric " + metric + ((field != null) ? " field " + field : "") + " = " + value + ": " + reason + ". "
				+ action);
		this.metric = metric;
		this.field = field;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	public String getMetric() {
		return this.metric;
	}

	public String getField() {
		return this.field;
	}

	public Object getValue() {
		return this.value;
	}

	public String getReason() {
		return this.reason;
	}

	public String getAction() {
		return this.action;
	}

}
