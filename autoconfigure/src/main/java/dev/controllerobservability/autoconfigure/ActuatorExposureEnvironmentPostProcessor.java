package dev.controllerobservability.autoconfigure;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;

/**
 * Exposes the {@code health} and {@code prometheus} actuator endpoints over HTTP unless
 * the user configured the exposure, and keeps exemplars off histograms' {@code _count}
 * lines unless the user configured that (see {@link StarterDefaultsPropertySource}). The
 * defaults are added as the property source of lowest precedence, and each gives its
 * value only while no other source sets that property, so the user's setting wins from
 * any source: files, the command line, environment variables, system properties,
 * {@code @PropertySource} and {@code SpringApplication.setDefaultProperties}, including
 * those added after this post-processor ran.
 */
class ActuatorExposureEnvironmentPostProcessor implements EnvironmentPostProcessor {

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		MutablePropertySources sources = environment.getPropertySources();
		if (!sources.contains(StarterDefaultsPropertySource.NAME)) {
			sources.addLast(new StarterDefaultsPropertySource(sources));
		}
	}

}
