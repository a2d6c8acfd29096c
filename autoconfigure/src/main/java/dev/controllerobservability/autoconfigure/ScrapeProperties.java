package dev.controllerobservability.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How Prometheus scrapes the controller: the port, path and interval of the generated
 * ServiceMonitor and PodMonitor.
 */
public class ScrapeProperties {

	/**
	 * Name of the Service or container port that serves the scrape endpoint. Defaults to
	 * "http", or "management" when management.server.port is set.
	 */
	private String port;

	/**
	 * Scrape interval, a Prometheus duration.
	 */
	private String interval = "30s";

	/**
	 * Labels of the Service (ServiceMonitor) or pods (PodMonitor) to scrape. Defaults to
	 * app.kubernetes.io/name set to spring.application.name.
	 */
	private Map<String, String> selector = new LinkedHashMap<>();

	public String getPort() {
		return this.port;
	}

	public void setPort(String port) {
		this.port = port;
	}

	public String getInterval() {
		return this.interval;
	}

	public void setInterval(String interval) {
		this.interval = interval;
	}

	public Map<String, String> getSelector() {
		return this.selector;
	}

	public void setSelector(Map<String, String> selector) {
		this.selector = selector;
	}

}
