package dev.controllerobservability.autoconfigure.endpoint;

import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import dev.controllerobservability.rules.RuleSet;

/**
 * {@code /actuator/controllerrules}: the alert and recording rules as JSON;
 * {@code /actuator/controllerrules/prometheus} the rules file,
 * {@code /actuator/controllerrules/prometheusrule} the {@code PrometheusRule} manifest,
 * {@code /actuator/controllerrules/servicemonitor} and {@code .../podmonitor} the
 * {@code ServiceMonitor} and {@code PodMonitor} manifests, and
 * {@code /actuator/controllerrules/dashboard} the Grafana dashboard. Not exposed unless
 * listed in {@code management.endpoints.web.exposure.include}.
 */
@Endpoint(id = "controllerrules")
public class ControllerRulesEndpoint {

	private final RuleSet rules;

	private final Map<String, Supplier<String>> artefacts;

	public ControllerRulesEndpoint(RuleSet rules, Map<String, Supplier<String>> artefacts) {
		this.rules = rules;
		this.artefacts = Map.copyOf(artefacts);
	}

	/**
	 * The rules.
	 * @return the rule group
	 */
	@ReadOperation
	public RuleSet rules() {
		return this.rules;
	}

	/**
	 * One rendered artefact.
	 * @param format {@code prometheus}, {@code prometheusrule}, {@code servicemonitor},
	 * {@code podmonitor} or {@code dashboard}
	 * @return its text, or {@code null} (404) for another format
	 */
	@ReadOperation(produces = "text/plain")
	public String artefact(@Selector String format) {
		Supplier<String> artefact = this.artefacts.get(format);
		return (artefact != null) ? artefact.get() : null;
	}

}
