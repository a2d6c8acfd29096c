package dev.controllerobservability.autoconfigure;

import dev.controllerobservability.InvalidDefinitionException;

/**
 * A {@code controller.observability.*} property has a value the starter cannot use.
 * Carries everything a failure analysis needs: the property, the value, why, and the fix.
 */
class InvalidObservabilityPropertyException extends RuntimeException {

	private final String property;

	private final Object value;

	private final String reason;

	private final String action;

	/**
	 * Creates the exception.
	 * @param property full property path, such as
	 * {@code controller.observability.duration-buckets[2]}
	 * @param value the bad value as configured
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	public InvalidObservabilityPropertyException(String property, Object value, String reason, String action) {
		super(property + "=" + value + ": " + reason + ". " + action);
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	/**
	 * The property exception for a declaration problem found by the core library.
	 * @param property the property path of the declaration, without the field
	 * @param problem the problem
	 * @param note text appended to the reason, such as where the declaration came from
	 * @return the exception naming {@code property.field}
	 */
	static InvalidObservabilityPropertyException of(String property, InvalidDefinitionException problem, String note) {
		return new InvalidObservabilityPropertyException(
				property + ((problem.getField() != null) ? "." + problem.getField() : ""), problem.getValue(),
				problem.getReason() + note, problem.getAction());
	}

	public String getProperty() {
		return this.property;
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
