package dev.controllerobservability.autoconfigure;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.InvalidSettingException;

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
		contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			InvalidObservabilityPropertyException spring = findCause(context.getStartupFailure());
			assertThat(spring.getProperty())
				.isEqualTo(ControllerObservabilityProperties.PREFIX + "." + plain.getProperty());
			assertThat(spring.getReason()).isEqualTo(plain.getReason());
			assertThat(spring.getAction()).isEqualTo(plain.getAction());
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
