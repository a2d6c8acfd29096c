package dev.controllerobservability.autoconfigure;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Exposes the {@code health} and {@code prometheus} actuator endpoints over HTTP unless
 * the user configured the exposure. The default is added as the property source of
 * lowest precedence, so any setting of the user's (file, environment variable, command
 * line) wins.
 */
class ActuatorExposureEnvironmentPostProcessor implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE_NAME = "controllerObservabilityDefaults";

	static final String EXPOSURE_PROPERTY = "management.endpoints.web.exposure.include";

	static final String EXPOSED_ENDPOINTS = "health,prometheus";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		boolean enabled = environment.getProperty(ControllerObservabilityProperties.PREFIX + ".enabled",
				Boolean.class, true);
		if (!enabled || environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			return;
		}
		environment.getPropertySources()
			.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(EXPOSURE_PROPERTY, EXPOSED_ENDPOINTS)));
	}

}
