package dev.controllerobservability.autoconfigure.strictness;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.catalog.InvalidMetricDefinitionException;

/**
 * Turns an {@link InvalidMetricDefinitionException} that a {@code MetricDefinition} bean
 * threw while it was built (such as a time to live without {@code perObject()}) into the
 * same failure analysis as a declared metric's mistake, instead of a stack trace.
 */
class InvalidMetricDefinitionFailureAnalyzer extends AbstractFailureAnalyzer<InvalidMetricDefinitionException> {

	private final InvalidObservabilityPropertyFailureAnalyzer properties;

	/**
	 * Creates the analyzer.
	 * @param environment where the properties come from; Spring Boot passes the
	 * application's
	 */
	InvalidMetricDefinitionFailureAnalyzer(@Nullable Environment environment) {
		this.properties = new InvalidObservabilityPropertyFailureAnalyzer(environment);
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidMetricDefinitionException cause) {
		return this.properties.analyze(rootFailure,
				InvalidObservabilityPropertyException.of(
						ControllerObservabilityProperties.PREFIX + ".metrics." + cause.getMetric(), cause,
						" (declared as a MetricDefinition bean)"));
	}

}
