package dev.controllerobservability.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidObservabilityPropertyException} into the failure analysis Spring
 * Boot prints instead of a stack trace.
 */
class InvalidObservabilityPropertyFailureAnalyzer
		extends AbstractFailureAnalyzer<InvalidObservabilityPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidObservabilityPropertyException cause) {
		return analysis(cause.getProperty(), cause.getValue(), cause.getReason(), cause.getAction(), cause);
	}

	static FailureAnalysis analysis(String property, Object value, String reason, String action, Throwable cause) {
		String description = String.format(
				"Invalid controller observability configuration:%n%n    Property: %s%n    Value: \"%s\"%n    Reason: %s",
				property, value, reason);
		return new FailureAnalysis(description, action, cause);
	}

}
