package dev.controllerobservability;

import org.jspecify.annotations.Nullable;

/**
 * A setting of {@link ControllerObservability.Builder} that cannot be used, refused when
 * the builder builds. The same rule refuses the same value on the Spring Boot path, where
 * the setting is a {@code controller.observability.*} property. Names the setting both
 * ways, the value, why, and the fix. Example of its message in plain Java:
 *
 * <pre>
 * ControllerObservability.Builder.namespace("Bad-Name"): a namespace must be a snake_case Prometheus name: ... Set it to a name such as 'bad_name'
 * </pre>
 */
public class InvalidSettingException extends IllegalArgumentException {

	private final String property;

	private final String builderCall;

	private final @Nullable Object value;

	private final String reason;

	private final String action;

	/**
	 * Creates the exception.
	 * @param property the setting as a property below {@code controller.observability},
	 * such as {@code operations.tags[0]}
	 * @param builderCall the setting as plain Java sets it, such as
	 * {@code ControllerObservability.Builder.operationTags(…) element 0}
	 * @param value the refused value
	 * @param reason why it cannot be used
	 * @param action what to change
	 * @param cause the problem found below the setting, or {@code null}
	 */
	public InvalidSettingException(String property, String builderCall, @Nullable Object value, String reason,
			String action, @Nullable Throwable cause) {
		super(builderCall + " = " + describe(value) + ": " + reason + ". " + action, cause);
		this.property = property;
		this.builderCall = builderCall;
		this.value = value;
		this.reason = reason;
		this.action = action;
	}

	private static String describe(@Nullable Object value) {
		return (value instanceof CharSequence) ? "\"" + value + "\"" : String.valueOf(value);
	}

	/**
	 * The setting as a property below {@code controller.observability}, such as
	 * {@code operations.tags[0]} or {@code metrics.nodes_total.buckets}.
	 * @return the relative property path
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * The setting as plain Java sets it, such as
	 * {@code ControllerObservability.Builder.operationTags(…) element 0}.
	 * @return the builder call
	 */
	public String getBuilderCall() {
		return this.builderCall;
	}

	/**
	 * The refused value.
	 * @return the value, or {@code null} when it was missing
	 */
	public @Nullable Object getValue() {
		return this.value;
	}

	/**
	 * Why the value cannot be used.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	/**
	 * What to change.
	 * @return the fix
	 */
	public String getAction() {
		return this.action;
	}

}
