package dev.controllerobservability.autoconfigure.rules;

import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Lists the lint findings that stopped start-up.
 */
class MetricsLintFailureAnalyzer extends AbstractFailureAnalyzer<MetricsLintFailedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MetricsLintFailedException cause) {
		String findings = cause.getFindings()
			.stream()
			.map((finding) -> "    " + finding)
			.collect(Collectors.joining(System.lineSeparator()));
		return new FailureAnalysis(
				"Controller metrics have lint findings, and controller.observability.lint.mode is fail:"
						+ System.lineSeparator() + System.lineSeparator() + findings,
				"Rename the metrics or labels as the findings say, allow bounded labels with "
						+ "controller.observability.lint.allowed-labels, or set controller.observability.lint.mode=warn.",
				cause);
	}

}
