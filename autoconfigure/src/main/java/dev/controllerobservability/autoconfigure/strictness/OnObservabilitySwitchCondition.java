package dev.controllerobservability.autoconfigure.strictness;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of {@link ConditionalOnObservabilitySwitch}. A switch reads as the binder
 * reads a boolean ({@code true}, {@code on}, {@code yes}, {@code 1} and their opposites,
 * in any case); anything else stops start-up with an
 * {@link InvalidObservabilityPropertyException}.
 */
class OnObservabilitySwitchCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, @Nullable Object> attributes = metadata
			.getAnnotationAttributes(ConditionalOnObservabilitySwitch.class.getName());
		String name = String.valueOf((attributes != null) ? attributes.get("value") : null);
		ConditionMessage.Builder message = ConditionMessage.forCondition(ConditionalOnObservabilitySwitch.class, name);
		Object value = context.getEnvironment().getProperty(name, Object.class);
		if (value == null) {
			return ConditionOutcome.match(message.because("it is not set"));
		}
		return isOn(name, value) ? ConditionOutcome.match(message.because("it is " + value))
				: ConditionOutcome.noMatch(message.because("it is " + value));
	}

	/**
	 * Reads a switch as the binder reads a boolean.
	 * @param name the switch's property name, for the error
	 * @param value its value
	 * @return whether it is on
	 * @throws InvalidObservabilityPropertyException when the value is no boolean
	 */
	static boolean isOn(String name, Object value) {
		Boolean on = asBoolean(value);
		if (on == null) {
			throw new InvalidObservabilityPropertyException(name, value, "a switch must be true or false"
					+ ((value instanceof Number) ? ", and an unquoted number in YAML or JSON is a number, which "
							+ "Spring Boot does not bind to a boolean" : "")
					+ "; a value that is neither would turn the starter's auto-configuration off without saying so",
					"Set it to true or false");
		}
		return on;
	}

	/**
	 * A switch's value as the binder would bind it to a boolean.
	 * @param value the value as its property source holds it
	 * @return the boolean, or {@code null} when the binder would refuse it
	 */
	static @Nullable Boolean asBoolean(Object value) {
		if (value instanceof Boolean on) {
			return on;
		}
		if (value instanceof CharSequence text) {
			try {
				return ApplicationConversionService.getSharedInstance().convert(text.toString(), Boolean.class);
			}
			catch (ConversionException ex) {
				return null;
			}
		}
		return null;
	}

}
