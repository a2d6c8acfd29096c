package dev.controllerobservability.autoconfigure;

import java.util.function.UnaryOperator;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Asserts that properties are refused at start-up as plain Java refused the same value:
 * the same setting, as a property, for the same reason, with the same fix.
 */
final class SameRefusal {

	private SameRefusal() {
	}

	/**
	 * Starts the context with the properties and compares its refusal with plain Java's.
	 * @param contextRunner the runner to start
	 * @param plain the refusal of plain Java
	 * @param properties the same value as {@code controller.observability.*} properties
	 */
	static void assertSameRefusal(ApplicationContextRunner contextRunner, InvalidSettingException plain,
			String... properties) {
		assertSameRefusal(contextRunner, plain, UnaryOperator.identity(), properties);
	}

	/**
	 * Starts the context with the properties and compares its refusal with plain Java's,
	 * whose reason and fix may name other settings as builder methods.
	 * @param contextRunner the runner to start
	 * @param plain the refusal of plain Java
	 * @param namedAsProperties plain Java's text with the settings it names named as
	 * properties
	 * @param properties the same value as {@code controller.observability.*} properties
	 */
	static void assertSameRefusal(ApplicationContextRunner contextRunner, InvalidSettingException plain,
			UnaryOperator<String> namedAsProperties, String... properties) {
		contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			InvalidObservabilityPropertyException spring = findCause(context.getStartupFailure());
			assertThat(spring.getProperty())
				.isEqualTo(ControllerObservabilityProperties.PREFIX + "." + plain.getProperty());
			assertThat(spring.getReason()).isEqualTo(namedAsProperties.apply(plain.getReason()));
			assertThat(spring.getAction()).isEqualTo(namedAsProperties.apply(plain.getAction()));
			assertThat(String.valueOf(spring.getValue())).isEqualTo(String.valueOf(plain.getValue()));
		});
	}

	private static InvalidObservabilityPropertyException findCause(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidObservabilityPropertyException refused) {
				return refused;
			}
		}
		throw new AssertionError("no InvalidObservabilityPropertyException in " + failure, failure);
	}

}
