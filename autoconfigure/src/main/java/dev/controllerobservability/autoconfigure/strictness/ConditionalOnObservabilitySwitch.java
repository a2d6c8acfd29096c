package dev.controllerobservability.autoconfigure.strictness;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * Matches while a switch of the starter, such as
 * {@code controller.observability.enabled}, is on or not set, like
 * {@code @ConditionalOnBooleanProperty(matchIfMissing = true)}, but refuses a value that
 * is not a boolean ({@code flase}, an empty environment variable) instead of reading it
 * as off, which would remove the starter without a word.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Documented
@Conditional(OnObservabilitySwitchCondition.class)
public @interface ConditionalOnObservabilitySwitch {

	/**
	 * The switch's full property name.
	 * @return the property
	 */
	String value();

}
