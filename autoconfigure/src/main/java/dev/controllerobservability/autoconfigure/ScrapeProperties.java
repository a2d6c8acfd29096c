package dev.controllerobservability.autoconfigure;

import java.util.Map;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How Prometheus scrapes the controller: the port, path and interval of the generated
 * ServiceMonitor and PodMonitor.
 *
 * @param port Name of the Service or container port that serves the scrape endpoint.
 * Defaults to "http", or "management" when management.server.port is set.
 * @param interval Scrape interval, a Prometheus duration.
 * @param selector Labels of the Service (ServiceMonitor) or pods (PodMonitor) to scrape.
 * Defaults to app.kubernetes.io/name set to spring.application.name.
 */
public record ScrapeProperties(String port, @DefaultValue("30s") String interval,
		@DefaultValue Map<String, String> selector) {

}
