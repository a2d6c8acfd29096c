package dev.controllerobservability.autoconfigure;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class ActuatorExposureEnvironmentPostProcessorTests {

	private final ActuatorExposureEnvironmentPostProcessor postProcessor = new ActuatorExposureEnvironmentPostProcessor();

	@Test
	void exposesHealthAndPrometheusByDefault() {
		StandardEnvironment environment = new StandardEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health,prometheus");
	}

	@Test
	void letsTheUsersExposureWin() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("user", Map.of("management.endpoints.web.exposure.include", "health")));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health");
	}

	@Test
	void exposesNothingWhenTheStarterIsDisabled() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("user", Map.of("controller.observability.enabled", "false")));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isNull();
	}

}
