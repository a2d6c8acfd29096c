package dev.controllerobservability.lint;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The findings of one lint run, sorted as promtool sorts them, split between the
 * controller's metrics and framework metrics (which the controller does not name). In a
 * test, one line checks an application:
 *
 * <pre>{@code
 * linter.lint(scrape).assertNoControllerFindings();
 * }</pre>
 *
 * @param findings every finding
 */
public record LintReport(List<LintFinding> findings) {

	public LintReport {
		findings = findings.stream().sorted().toList();
	}

	/**
	 * Findings on the controller's metrics.
	 * @return the findings
	 */
	public List<LintFinding> controllerFindings() {
		return this.findings.stream().filter(LintFinding::controllerMetric).toList();
	}

	/**
	 * Findings on framework metrics (JVM, process, HTTP server, ...).
	 * @return the findings
	 */
	public List<LintFinding> frameworkFindings() {
		return this.findings.stream().filter((finding) -> !finding.controllerMetric()).toList();
	}

	/**
	 * Fails when a controller metric has a finding.
	 * @throws AssertionError listing the findings, one per line
	 */
	public void assertNoControllerFindings() {
		List<LintFinding> findings = controllerFindings();
		if (!findings.isEmpty()) {
			throw new AssertionError("Controller metrics have " + findings.size() + " lint finding(s):\n"
					+ findings.stream().map(LintFinding::toString).collect(Collectors.joining("\n")));
		}
	}

}
