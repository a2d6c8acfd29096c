package dev.controllerobservability.autoconfigure.scrape;

import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Boot's own scrape endpoint, which renders each request on its own, for
 * {@link ScaleScrapeApplication} run with {@code stock}. A class of its own: nested in
 * the application, Spring would always import it.
 */
@Configuration(proxyBeanMethods = false)
class StockScrapeEndpoint {

	@Bean
	PrometheusScrapeEndpoint stockPrometheusEndpoint(PrometheusRegistry registry) {
		return new PrometheusScrapeEndpoint(registry, null);
	}

}
