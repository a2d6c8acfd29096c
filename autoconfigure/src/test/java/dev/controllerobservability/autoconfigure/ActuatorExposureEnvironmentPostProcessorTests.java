package dev.controllerobservability.autoconfigure;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

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
	void listsItsNamesWithoutLookingAtOtherSources() {
		StandardEnvironment environment = new StandardEnvironment();
		AtomicInteger lookups = new AtomicInteger();
		environment.getPropertySources().addFirst(new MapPropertySource("counted", Map.of("some.property", "x")) {

			@Override
			public Object getProperty(String name) {
				lookups.incrementAndGet();
				return super.getProperty(name);
			}

		});
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		EnumerablePropertySource<?> defaults = (EnumerablePropertySource<?>) environment.getPropertySources()
			.get(StarterDefaultsPropertySource.NAME);
		lookups.set(0);
		for (int i = 0; i < 100; i++) {
			assertThat(defaults.getPropertyNames()).hasSize(3);
		}
		// Boot asks a mutable source for its names at every lookup through it.
		assertThat(lookups).hasValue(0);
		assertThat(defaults.containsProperty("management.endpoints.web.exposure.include")).isTrue();
		assertThat(lookups.get()).isPositive();
	}

	@Test
	void listsNoValueForADefaultTheUserSet() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("user", Map.of("management.endpoints.web.exposure.include", "health",
					"management.otlp.metrics.export.base-time-unit", "milliseconds")));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		EnumerablePropertySource<?> defaults = (EnumerablePropertySource<?>) environment.getPropertySources()
			.get(StarterDefaultsPropertySource.NAME);
		assertThat(defaults.containsProperty("management.endpoints.web.exposure.include")).isFalse();
		assertThat(defaults.containsProperty("management.otlp.metrics.export.base-time-unit")).isFalse();
		assertThat(defaults.getProperty("management.prometheus.metrics.export.properties."
				+ "io.prometheus.exporter.exemplarsOnAllMetricTypes"))
			.isEqualTo("false");
		assertThat(environment.getProperty("management.otlp.metrics.export.base-time-unit")).isEqualTo("milliseconds");
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
	void letsAUserSourceAddedAfterwardsWin() {
		StandardEnvironment environment = new StandardEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		environment.getPropertySources()
			.addLast(new MapPropertySource("late", Map.of("management.endpoints.web.exposure.include", "health")));
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health");
	}

	@Test
	void letsAYamlListWin() {
		StandardEnvironment environment = new StandardEnvironment();
		ConfigurationPropertySources.attach(environment);
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		environment.getPropertySources()
			.addLast(
					new MapPropertySource("yaml list", Map.of("management.endpoints.web.exposure.include[0]", "info")));
		assertThat(Binder.get(environment)
			.bind("management.endpoints.web.exposure.include", Bindable.listOf(String.class))
			.get()).containsExactly("info");
		assertThat(environment.getPropertySources()
			.get(StarterDefaultsPropertySource.NAME)
			.getProperty("management.endpoints.web.exposure.include")).isNull();
	}

	@Test
	void letsAnEnvironmentVariableWin() {
		StandardEnvironment environment = new StandardEnvironment();
		ConfigurationPropertySources.attach(environment);
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		environment.getPropertySources()
			.addLast(new SystemEnvironmentPropertySource("variables",
					Map.of("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health")));
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isEqualTo("health");
		assertThat(Binder.get(environment)
			.bind("management.endpoints.web.exposure.include", Bindable.listOf(String.class))
			.get()).containsExactly("health");
	}

	@Test
	void exposesNothingWhenTheStarterIsDisabledLater() {
		StandardEnvironment environment = new StandardEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		environment.getPropertySources()
			.addLast(new MapPropertySource("late", Map.of("controller.observability.enabled", "${starter.on:false}")));
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isNull();
	}

	@Test
	void addsItsDefaultOnlyOnce() {
		StandardEnvironment environment = new StandardEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getPropertySources().stream().filter(StarterDefaultsPropertySource.class::isInstance))
			.hasSize(1);
	}

	@Test
	void exposesNothingWhenTheStarterIsDisabled() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("user", Map.of("controller.observability.enabled", "false")));
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("management.endpoints.web.exposure.include")).isNull();
	}

	@Test
	void keepsExemplarsOffCountLinesByDefault() {
		StandardEnvironment environment = new StandardEnvironment();
		ConfigurationPropertySources.attach(environment);
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(Binder.get(environment)
			.bind("management.prometheus.metrics.export.properties", Bindable.mapOf(String.class, String.class))
			.get()).containsEntry("io.prometheus.exporter.exemplarsOnAllMetricTypes", "false");
	}

	@Test
	void letsTheUsersExemplarSettingWinFromALaterSource() {
		StandardEnvironment environment = new StandardEnvironment();
		ConfigurationPropertySources.attach(environment);
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		environment.getPropertySources()
			.addLast(new MapPropertySource("late", Map.of(
					"management.prometheus.metrics.export.properties.io.prometheus.exporter.exemplarsOnAllMetricTypes",
					"true")));
		assertThat(Binder.get(environment)
			.bind("management.prometheus.metrics.export.properties", Bindable.mapOf(String.class, String.class))
			.get()).containsEntry("io.prometheus.exporter.exemplarsOnAllMetricTypes", "true").hasSize(1);
	}

}
