package dev.controllerobservability.rules;

import dev.controllerobservability.InvalidDefinitionException;

/**
 * A rule that cannot be deployed: names the rule, the field, the value, why, and the fix.
 */
public class InvalidRuleException extends InvalidDefinitionException {

	/**
	 * Creates the exception.
	 * @param rule the alert or recording rule name
	 * @param field the field, as written in configuration, or {@code null} for the name
	 * @param value the bad value
	 * @param reason why it cannot be used
	 * @param action what to change
	 */
	public InvalidRuleException(String rule, String field, Object value, String reason, String action) {
		super("Rule", rule, field, value, reason, action);
	}

	/**
	 * The alert or recording rule name.
	 * @return the name
	 */
	public String getRule() {
		return getSubject();
	}

}
