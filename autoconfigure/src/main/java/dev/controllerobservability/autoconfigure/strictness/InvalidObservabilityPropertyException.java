package dev.controllerobservability.autoconfigure.strictness;

import dev.controllerobservability.InvalidDefinitionException;
import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;

/**
 * A {@code controller.observability.*} property has a value the starter cannot use.
 * Carries everything a failure analysis needs: the property, the value, why, and the fix.
 */
public class InvalidObservabilityPropertyException extends RuntimeException {

	private final String property;

	private final Object value;

	private final String reason;

	private final String action;

	private final boolean originNamed;

	/**
	 * Creates the exception.
	 * @param property full property path, such as
	 * {@code controller.observability.duration-buckets[2]}
	 * @param value the bad value as configured
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	public InvalidObservabilityPropertyException(String property, Object value, String reason, String action) {
		this(property, value, reason, action, false);
	}

	private InvalidObservabilityPropertyException(String property, Object value, String reason, String action,
			boolean originNamed) {
		super(property + "=" + value + ": " + reason + ". " + action);
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.action = action;
		this.originNamed = originNamed;
	}

	/**
	 * The exception for a property whose reason or action already says which property
	 * source it is in, such as "Correct or remove the system property".
	 * @param property the property as written in its source
	 * @param value the bad value as configured
	 * @param reason why it cannot be used
	 * @param action what to change, naming the property source
	 * @return the exception
	 */
	static InvalidObservabilityPropertyException inNamedSource(String property, Object value, String reason,
			String action) {
		return new InvalidObservabilityPropertyException(property, value, reason, action, true);
	}

	/**
	 * The property exception for a declaration problem found by the core library.
	 * @param property the property path of the declaration, without the field
	 * @param problem the problem
	 * @param note text appended to the reason, such as where the declaration came from
	 * @return the exception naming {@code property.field}
	 */
	public static InvalidObservabilityPropertyException of(String property, InvalidDefinitionException problem,
			String note) {
		return new InvalidObservabilityPropertyException(
				property + ((problem.getField() != null) ? "." + problem.getField() : ""), problem.getValue(),
				problem.getReason() + note, problem.getAction());
	}

	/**
	 * The property exception for a setting the core's rules refused.
	 * @param refused the refusal, naming the setting below
	 * {@code controller.observability}
	 * @return the exception naming the whole property
	 */
	public static InvalidObservabilityPropertyException of(InvalidSettingException refused) {
		return new InvalidObservabilityPropertyException(
				ControllerObservabilityProperties.PREFIX + "." + refused.getProperty(), refused.getValue(),
				refused.getReason(), refused.getAction());
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

	/**
	 * Whether the reason or action already names where the value came from, so the
	 * analysis adds no origin.
	 * @return whether the origin is named
	 */
	boolean isOriginNamed() {
		return this.originNamed;
	}

}
