package dev.controllerobservability.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import dev.controllerobservability.internal.rules.PromQl;
import dev.controllerobservability.rules.ScrapeTarget;

/**
 * Builds the {@link ScrapeTarget} of the generated {@code ServiceMonitor} and
 * {@code PodMonitor} from {@code controller.observability.scrape.*} and the actuator's
 * own settings: the scrape path follows {@code management.server.base-path} (on a
 * separate management port), {@code management.endpoints.web.base-path} and the
 * {@code prometheus} endpoint's path mapping, and the port name defaults to
 * {@code management} when {@code management.server.port} is set.
 */
final class ScrapeTargetFactory {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".scrape.";

	/**
	 * Kubernetes port names (IANA service names): what a ServiceMonitor's port refers to.
	 */
	private static final Pattern PORT_NAME = Pattern.compile("(?=.*[a-z])[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	private ScrapeTargetFactory() {
	}

	static ScrapeTarget create(ScrapeProperties scrape, Map<String, String> labels, Environment environment,
			String applicationName) {
		Binder binder = Binder.get(environment);
		boolean managementPort = binder.bind("management.server.port", Integer.class).isBound();
		String port = (scrape.getPort() != null) ? scrape.getPort() : managementPort ? "management" : "http";
		if (port.length() > 15 || port.contains("--") || !PORT_NAME.matcher(port).matches()) {
			throw new InvalidObservabilityPropertyException(PREFIX + "port", port,
					"a Kubernetes port name has at most 15 lowercase letters, digits or single '-', with at least one "
							+ "letter, so the API server rejects a ServiceMonitor or PodMonitor naming it",
					"Use the name of the port in your Service or container, such as 'http' or 'metrics'");
		}
		if (!PromQl.isDuration(scrape.getInterval())) {
			throw new InvalidObservabilityPropertyException(PREFIX + "interval", scrape.getInterval(),
					"the scrape interval is a Prometheus duration", "Write it like 30s or 1m");
		}
		Map<String, String> selector = new LinkedHashMap<>(scrape.getSelector());
		if (selector.isEmpty()) {
			selector.put("app.kubernetes.io/name", applicationName);
		}
		RulesResolver.kubernetesLabels(PREFIX + "selector", selector, "ServiceMonitor or PodMonitor");
		String path = (managementPort ? trimmed(binder.bind("management.server.base-path", String.class).orElse(""))
				: "") + trimmed(binder.bind("management.endpoints.web.base-path", String.class).orElse("/actuator"))
				+ "/"
				+ binder.bind("management.endpoints.web.path-mapping.prometheus", String.class)
					.orElse("prometheus")
					.replaceAll("^/+", "");
		return new ScrapeTarget(applicationName, selector, labels, port, path.startsWith("/") ? path : "/" + path,
				scrape.getInterval());
	}

	/** A base path without its trailing slash ("" for the root). */
	private static String trimmed(String basePath) {
		String path = basePath.replaceAll("/+$", "");
		return (path.isEmpty() || path.startsWith("/")) ? path : "/" + path;
	}

}
