package dev.controllerobservability.autoconfigure;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties.Lint.Mode;
import dev.controllerobservability.lint.LintFinding;
import dev.controllerobservability.lint.LintReport;

/**
 * Lints the exposed metrics once the application is ready: findings on controller
 * metrics are logged ({@code warn}) or stop the application ({@code fail}); framework
 * findings are only summarised, since the controller does not name those metrics.
 */
class StartupMetricsLint implements ApplicationListener<ApplicationReadyEvent> {

	private static final Logger logger = LoggerFactory.getLogger(StartupMetricsLint.class);

	private final LiveMetrics liveMetrics;

	private final Mode mode;

	StartupMetricsLint(LiveMetrics liveMetrics, Mode mode) {
		this.liveMetrics = liveMetrics;
		this.mode = mode;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		if (this.mode == Mode.OFF) {
			return;
		}
		LintReport report = this.liveMetrics.lint();
		List<LintFinding> findings = report.controllerFindings();
		if (this.mode == Mode.FAIL && !findings.isEmpty()) {
			throw new MetricsLintFailedException(findings);
		}
		findings.forEach((finding) -> logger.warn("Metric lint: {}", finding));
		if (!report.frameworkFindings().isEmpty()) {
			logger.debug("{} lint finding(s) on framework metrics, which the controller does not name: {}",
					report.frameworkFindings().size(), report.frameworkFindings());
		}
	}

}
