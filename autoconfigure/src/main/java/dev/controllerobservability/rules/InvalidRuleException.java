package dev.controllerobservability.rules;

/**
 * A rule that cannot be deployed: names the rule, the field, the value, why, and the fix.
 */
public class InvalidRuleException extends IllegalArgumentException {

	private final String rule;

	private final String field;

	private final Object value;

	private final String reason;

	private final String action;

	/**
	 * Creates the exception.
	 * @param rule the alert or recording rule name
	 * @param field the field, as written in configuration, or {@code null} for the name
	 * @param value the bad value
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	public InvalidRuleException(String rule, String field, Object value, String reason, String action) {
		super("Rule " + rule + ((field != null) ? " field " + field : "") + " = " + value + ": " + reason + ". "
				+ action);
		this.rule = rule;
		this.field = field;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	public String getRule() {
		return this.rule;
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
