package dev.controllerobservability.internal.rules;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.rules.InvalidRuleException;

/**
 * Resolves the placeholders rules may use, so they survive a namespace or subsystem
 * change: {@code ${namespace}}, {@code ${operation.<name>.duration}} (the operation's
 * duration histogram, such as {@code karpenter_cloudprovider_launch_duration_seconds})
 * and {@code ${operation.<name>.in_flight}}.
 */
public final class RuleTemplates {

	private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");

	private final String namespace;

	private final Function<String, OperationDescriptor> operations;

	/**
	 * Creates the resolver.
	 * @param namespace the controller's namespace
	 * @param operations describes an operation by name
	 */
	public RuleTemplates(String namespace, Function<String, OperationDescriptor> operations) {
		this.namespace = namespace;
		this.operations = operations;
	}

	/**
	 * Resolves every placeholder of a text.
	 * @param rule the rule, for errors
	 * @param field the field, for errors
	 * @param text the text
	 * @return the text with placeholders replaced
	 * @throws InvalidRuleException for an unknown placeholder
	 */
	public String resolve(String rule, String field, String text) {
		if (text == null) {
			return null;
		}
		Matcher matcher = PLACEHOLDER.matcher(text);
		StringBuilder result = new StringBuilder();
		while (matcher.find()) {
			matcher.appendReplacement(result, Matcher.quoteReplacement(value(rule, field, matcher.group(1))));
		}
		matcher.appendTail(result);
		return result.toString();
	}

	private String value(String rule, String field, String placeholder) {
		if (placeholder.equals("namespace")) {
			return this.namespace;
		}
		String[] parts = placeholder.split("\\.");
		if (parts.length == 3 && parts[0].equals("operation")) {
			OperationDescriptor operation = this.operations.apply(parts[1]);
			if (parts[2].equals("duration")) {
				return operation.familyName();
			}
			if (parts[2].equals("in_flight")) {
				return operation.inFlightFamilyName();
			}
		}
		throw new InvalidRuleException(rule, field, "${" + placeholder + "}", "the placeholder is unknown",
				"Use ${namespace}, ${operation.<name>.duration} or ${operation.<name>.in_flight}");
	}

}
