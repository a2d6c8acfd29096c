package dev.controllerobservability.autoconfigure;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * How Prometheus scrapes the controller: the port, path and interval of the generated
 * ServiceMonitor and PodMonitor, and the largest scrape the endpoint serves.
 *
 * @param port Name of the Service or container port that serves the scrape endpoint.
 * Defaults to "http", or "management" when management.server.port is set.
 * @param interval Scrape interval, a Prometheus duration.
 * @param selector Labels of the Service (ServiceMonitor) or pods (PodMonitor) to scrape.
 * Defaults to app.kubernetes.io/name set to spring.application.name.
 * @param maxSize Largest scrape /actuator/prometheus renders; a scrape that passes it is
 * answered with status 500 and counted in
 * &lt;namespace&gt;_observability_scrape_errors_total. Defaults to a quarter of the
 * maximum heap.
 */
public record ScrapeProperties(String port, @DefaultValue("30s") String interval,
		@DefaultValue Map<String, String> selector, @Nullable DataSize maxSize) {

}
