package dev.controllerobservability;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The core is a plain library: its class path, tests included, holds no Spring. The build
 * keeps it so (maven-enforcer-plugin's banned dependencies); this test shows it from
 * inside.
 */
class CoreIndependenceTests {

	@ParameterizedTest
	@ValueSource(strings = { "org.springframework.core.SpringVersion", "org.springframework.boot.SpringApplication",
			"org.springframework.context.ApplicationContext" })
	void classPathHoldsNoSpring(String springClass) {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName(springClass, false, getClass().getClassLoader()));
	}

}
