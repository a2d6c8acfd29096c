package dev.controllerobservability.autoconfigure.strictness;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * An environment of two property sources, for tests that check names or origins without
 * starting an application: environment variables over a properties file named
 * {@code file}.
 */
final class LayeredEnvironment {

	private LayeredEnvironment() {
	}

	/**
	 * Creates the environment.
	 * @param file the properties of the file
	 * @param variables the environment variables, which take precedence over the file
	 * @return the environment, with no system properties
	 */
	static StandardEnvironment of(Map<String, Object> file, Map<String, Object> variables) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<>(variables)));
		environment.getPropertySources().addLast(new MapPropertySource("file", new LinkedHashMap<>(file)));
		return environment;
	}

}
