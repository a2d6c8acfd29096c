package dev.controllerobservability.autoconfigure.scrape;

import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.ConditionalOnEnabledMetricsExport;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.strictness.ConditionalOnObservabilitySwitch;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.scrape.ScrapeErrors;
import dev.controllerobservability.scrape.SharedScrape;

/**
 * Auto-configuration of {@code /actuator/prometheus} on a {@link SharedScrape}. It runs
 * before Spring Boot's Prometheus export auto-configuration, whose scrape endpoint backs
 * off when a {@link PrometheusScrapeEndpoint} bean exists, and under the same conditions
 * as it. A {@code PrometheusScrapeEndpoint} bean of the application's own takes the place
 * of this one.
 */
@AutoConfiguration(before = PrometheusMetricsExportAutoConfiguration.class, after = MetricsAutoConfiguration.class)
@ConditionalOnClass({ PrometheusMeterRegistry.class, PrometheusScrapeEndpoint.class,
		ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(Clock.class)
@ConditionalOnEnabledMetricsExport("prometheus")
@ConditionalOnObservabilitySwitch(ControllerObservabilityProperties.PREFIX + ".enabled")
@EnableConfigurationProperties(ControllerObservabilityProperties.class)
public final class SharedScrapeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SharedScrape controllerSharedScrape(PrometheusRegistry prometheusRegistry, ScrapeErrors scrapeErrors,
			ControllerObservabilityProperties properties, ObjectProvider<PrometheusConfig> prometheusConfig) {
		SharedScrape.Builder builder = sharedScrape(prometheusRegistry, scrapeErrors, properties.scrape().maxSize());
		// As Boot's endpoint does: management.prometheus.metrics.export.properties shape
		// the written scrape (created timestamps, exemplars, timestamps in milliseconds).
		prometheusConfig.ifAvailable((config) -> builder.exporterProperties(
				PrometheusPropertiesLoader.load(config.prometheusProperties()).getExporterProperties()));
		return builder.build();
	}

	@Bean
	@ConditionalOnMissingBean(PrometheusScrapeEndpoint.class)
	@ConditionalOnAvailableEndpoint(PrometheusScrapeEndpoint.class)
	SharedScrapeEndpoint controllerPrometheusEndpoint(PrometheusRegistry prometheusRegistry, SharedScrape scrape) {
		return new SharedScrapeEndpoint(prometheusRegistry, scrape);
	}

	/** The shared scrape, its maximum size checked by the core's rule. */
	static SharedScrape.Builder sharedScrape(PrometheusRegistry registry, ScrapeErrors errors,
			@Nullable DataSize maxSize) {
		SharedScrape.Builder builder = SharedScrape.builder(registry, errors).settingNames(SettingNames.PROPERTIES);
		if (maxSize != null) {
			try {
				builder.maxSize(maxSize.toBytes());
			}
			catch (InvalidSettingException ex) {
				throw InvalidObservabilityPropertyException.of(ex);
			}
		}
		return builder;
	}

}
