package dev.controllerobservability;

/**
 * A declaration (a metric, a rule) that cannot be used. Names what was declared, the
 * field, the value, why, and the fix, so the Spring layer can turn it into a failure
 * analysis naming the property.
 */
public abstract class InvalidDefinitionException extends IllegalArgumentException {

	private final String subject;

	private final String field;

	private final Object value;

	private final String reason;

	private final String action;

	/**
	 * Creates the exception.
	 * @param kind what was declared, such as {@code Metric}, for the message
	 * @param subject its declared name
	 * @param field the field, as written in configuration, or {@code null} for the name
	 * itself
	 * @param value the bad value
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	protected InvalidDefinitionException(String kind, String subject, String field, Object value, String reason,
			String action) {
		super(kind + " " + subject + ((field != null) ? " field " + field : "") + " = " + value + ": " + reason + ". "
				+ action);
		this.subject = subject;
		this.field = field;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	/**
	 * The declared name: the metric or rule.
	 * @return the name
	 */
	public String getSubject() {
		return this.subject;
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
