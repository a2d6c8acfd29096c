package dev.controllerobservability.autoconfigure.rules;

import java.util.List;

import dev.controllerobservability.lint.LintFinding;

/**
 * Controller metrics have lint findings and {@code controller.observability.lint.mode} is
 * {@code fail}.
 */
class MetricsLintFailedException extends RuntimeException {

	private final List<LintFinding> findings;

	public MetricsLintFailedException(List<LintFinding> findings) {
		super(findings.size() + " lint finding(s) on controller metrics");
		this.findings = List.copyOf(findings);
	}

	public List<LintFinding> getFindings() {
		return this.findings;
	}

}
