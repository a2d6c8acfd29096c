package dev.controllerobservability.autoconfigure;

import java.util.List;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * The starter's failure analyzers, in the order Spring Boot applies them, for tests that
 * check the analysis of a failed start.
 */
final class ControllerObservabilityFailureAnalysis {

	private static final List<FailureAnalyzer> ANALYZERS = List.of(
			new UnknownObservabilityPropertyFailureAnalyzer(null), new ObservabilityBindFailureAnalyzer(),
			new InvalidObservabilityPropertyFailureAnalyzer(null), new MetricsLintFailureAnalyzer());

	private ControllerObservabilityFailureAnalysis() {
	}

	static FailureAnalysis analyze(Throwable failure) {
		for (FailureAnalyzer analyzer : ANALYZERS) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

}
