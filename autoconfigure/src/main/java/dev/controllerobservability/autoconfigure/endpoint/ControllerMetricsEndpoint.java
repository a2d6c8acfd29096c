package dev.controllerobservability.autoconfigure.endpoint;

import java.util.List;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.live.LiveMetrics;

/**
 * {@code /actuator/controllermetrics}: every exposed and declared metric as JSON, and
 * {@code /actuator/controllermetrics/markdown} the same as the Markdown reference. Not
 * exposed unless listed in {@code management.endpoints.web.exposure.include}. A call
 * scrapes only when a meter was added or removed since the previous one (see
 * {@link LiveMetrics#reference()}).
 */
@Endpoint(id = "controllermetrics")
public class ControllerMetricsEndpoint {

	private final LiveMetrics liveMetrics;

	private final String namespace;

	public ControllerMetricsEndpoint(LiveMetrics liveMetrics, String namespace) {
		this.liveMetrics = liveMetrics;
		this.namespace = namespace;
	}

	/**
	 * The catalog and live metadata.
	 * @return every metric family
	 */
	@ReadOperation
	public ControllerMetricsDescriptor metrics() {
		return new ControllerMetricsDescriptor(this.namespace, this.liveMetrics.reference().entries());
	}

	/**
	 * The reference as Markdown.
	 * @param format must be {@code markdown}
	 * @return the Markdown, or {@code null} (404) for another format
	 */
	@ReadOperation(produces = "text/markdown")
	public String document(@Selector String format) {
		return "markdown".equals(format)
				? this.liveMetrics.reference().toMarkdown("Metrics of namespace " + this.namespace) : null;
	}

	/**
	 * The endpoint's JSON.
	 *
	 * @param namespace the controller's namespace
	 * @param metrics every exposed or declared metric family
	 */
	public record ControllerMetricsDescriptor(String namespace, List<ReferenceEntry> metrics) {
	}

}
