package dev.controllerobservability.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import dev.controllerobservability.rules.ScrapeTarget;

/**
 * Builds the {@link ScrapeTarget} of the generated {@code ServiceMonitor} and
 * {@code PodMonitor} from {@code controller.observability.scrape.*} and the actuator's
 * own settings: the scrape path follows {@code management.server.base-path} (on a
 * separate management port), {@code management.endpoints.web.base-path} and the
 * {@code prometheus} endpoint's path mapping, and the port name defaults to
 * {@code management} when {@code management.server.port} is set. The target checks its
 * port, interval and labels itself.
 */
final class ScrapeTargetFactory {

	private ScrapeTargetFactory() {
	}

	static ScrapeTarget create(ScrapeProperties scrape, Map<String, String> labels, Environment environment,
			String applicationName) {
		Binder binder = Binder.get(environment);
		boolean managementPort = binder.bind("management.server.port", Integer.class).isBound();
		String port = (scrape.port() != null) ? scrape.port() : managementPort ? "management" : "http";
		Map<String, String> selector = new LinkedHashMap<>(scrape.selector());
		if (selector.isEmpty()) {
			selector.put("app.kubernetes.io/name", applicationName);
		}
		String path = (managementPort ? trimmed(binder.bind("management.server.base-path", String.class).orElse(""))
				: "") + trimmed(binder.bind("management.endpoints.web.base-path", String.class).orElse("/actuator"))
				+ "/"
				+ binder.bind("management.endpoints.web.path-mapping.prometheus", String.class)
					.orElse("prometheus")
					.replaceAll("^/+", "");
		return new ScrapeTarget(applicationName, selector, labels, port, path.startsWith("/") ? path : "/" + path,
				scrape.interval());
	}

	/** A base path without its trailing slash ("" for the root). */
	private static String trimmed(String basePath) {
		String path = basePath.replaceAll("/+$", "");
		return (path.isEmpty() || path.startsWith("/")) ? path : "/" + path;
	}

}
