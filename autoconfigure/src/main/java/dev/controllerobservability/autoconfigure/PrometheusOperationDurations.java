package dev.controllerobservability.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.operations.OperationDurations;
import dev.controllerobservability.internal.operations.PrometheusDurations;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

/**
 * The {@code prometheus} backend of {@code controller.observability.operations.backend},
 * apart so that the Prometheus client is loaded only when it is chosen.
 */
final class PrometheusOperationDurations {

	static final String PROPERTY = ControllerObservabilityProperties.PREFIX + ".operations.backend";

	private static final String PROMETHEUS_EXPORT = "management.prometheus.metrics.export.enabled";

	private static final String DEFAULT_EXPORT = "management.defaults.metrics.export.enabled";

	private PrometheusOperationDurations() {
	}

	/**
	 * The backend, or a clear failure when the application has no Prometheus registry.
	 */
	static OperationDurations create(BeanFactory beanFactory, MeterRegistry meterRegistry, NamingPolicy naming,
			ClaimedFamilies claimed) {
		ClassLoader classLoader = PrometheusOperationDurations.class.getClassLoader();
		if (!ClassUtils.isPresent("io.prometheus.metrics.core.metrics.Histogram", classLoader)
				|| !ClassUtils.isPresent("io.prometheus.metrics.model.registry.PrometheusRegistry", classLoader)) {
			throw noRegistry(beanFactory,
					"the Prometheus client (io.prometheus:prometheus-metrics-core) is not on the class path");
		}
		PrometheusRegistry registry = beanFactory.getBeanProvider(PrometheusRegistry.class).getIfUnique();
		if (registry == null) {
			throw noRegistry(beanFactory, "the application has no single PrometheusRegistry bean");
		}
		// Micrometer gives every meter management.metrics.tags through a meter filter,
		// which these histograms do not pass: the naming policy gives them as constant
		// labels, under the controller's own common tags.
		return new PrometheusDurations(registry, meterRegistry.config().clock(), naming, claimed);
	}

	private static InvalidObservabilityPropertyException noRegistry(BeanFactory beanFactory, String reason) {
		Environment environment = beanFactory.getBeanProvider(Environment.class).getIfAvailable();
		return new InvalidObservabilityPropertyException(PROPERTY, "prometheus",
				"operation durations go straight to the Prometheus registry, but " + reason,
				export(environment) + ", or set " + PROPERTY + "=micrometer" + origin(environment, PROPERTY));
	}

	/** How to get Spring Boot to define the PrometheusRegistry. */
	private static String export(Environment environment) {
		String leaveOn = "leave " + PROMETHEUS_EXPORT + " on (Spring Boot then defines the PrometheusRegistry)";
		if (environment == null) {
			return "Add io.micrometer:micrometer-registry-prometheus and " + leaveOn;
		}
		if ("false".equalsIgnoreCase(environment.getProperty(PROMETHEUS_EXPORT))) {
			return "Set " + PROMETHEUS_EXPORT + "=true" + origin(environment, PROMETHEUS_EXPORT)
					+ " (Spring Boot then defines the PrometheusRegistry)";
		}
		if ("false".equalsIgnoreCase(environment.getProperty(DEFAULT_EXPORT))) {
			return "Set " + PROMETHEUS_EXPORT + "=true: " + DEFAULT_EXPORT + "=false"
					+ origin(environment, DEFAULT_EXPORT) + " turns off every registry not turned on by name";
		}
		return "Add io.micrometer:micrometer-registry-prometheus and " + leaveOn;
	}

	private static String origin(Environment environment, String name) {
		if (environment == null) {
			return "";
		}
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(ConfigurationPropertyName.of(name));
			if (property != null && property.getOrigin() != null) {
				return " in " + property.getOrigin();
			}
		}
		return "";
	}

}
