package dev.controllerobservability.autoconfigure.rules;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.autoconfigure.LintProperties.Mode;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.internal.rules.RuleReads;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.lint.LintFinding;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.live.LiveMetrics;
import dev.controllerobservability.rules.RuleSet;

/**
 * Checks the exposed metrics once the application is ready, on one scrape:
 * <ul>
 * <li>every metric a rule reads exists (exposed, declared, an operation's, or another
 * recording rule), so a typo is caught at start-up, not when the alert should have
 * fired;</li>
 * <li>lint findings on controller metrics, exposed or declared without series yet, are
 * logged ({@code warn}) or stop the application ({@code fail}); framework findings are
 * only summarised, since the controller does not name those metrics.</li>
 * </ul>
 * Only what can stop the application needs to run before it is ready. The scrape is taken
 * before readiness only when a rule reads a metric that is neither declared nor a
 * recording rule, or in {@code fail} mode. In {@code warn} mode the lint is handed to the
 * application's task executor (Spring Boot's {@code applicationTaskExecutor}) when the
 * application has one, and logs a moment later; without one it runs before readiness. The
 * starter starts no thread of its own.
 */
class StartupChecks implements ApplicationListener<ApplicationReadyEvent> {

	private static final Logger logger = LoggerFactory.getLogger(StartupChecks.class);

	private final LiveMetrics liveMetrics;

	private final RuleSet rules;

	private final Mode lintMode;

	private final ObjectProvider<Executor> applicationTaskExecutor;

	private final List<String> disabledMetrics;

	StartupChecks(LiveMetrics liveMetrics, RuleSet rules, Mode lintMode,
			ObjectProvider<Executor> applicationTaskExecutor, List<String> disabledMetrics) {
		this.liveMetrics = liveMetrics;
		this.rules = rules;
		this.lintMode = lintMode;
		this.applicationTaskExecutor = applicationTaskExecutor;
		this.disabledMetrics = List.copyOf(disabledMetrics);
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		RuleReads reads = new RuleReads(this.rules, this.liveMetrics.declaredFamilies(), this.disabledMetrics,
				SettingNames.PROPERTIES);
		// The scrape is needed before readiness only when a rule reads a metric nothing
		// declares, or for a lint that may stop the application.
		Exposition exposition = null;
		if (!reads.allKnown() || this.lintMode == Mode.FAIL) {
			exposition = this.liveMetrics.exposition();
			reads.add(exposition.families());
		}
		try {
			reads.check();
		}
		catch (InvalidSettingException ex) {
			throw InvalidObservabilityPropertyException.of(ex);
		}
		if (this.lintMode == Mode.FAIL) {
			lint(exposition);
		}
		else if (this.lintMode == Mode.WARN) {
			Exposition taken = exposition;
			warnLater(() -> lint((taken != null) ? taken : this.liveMetrics.exposition()),
					event.getSpringApplication().getWebApplicationType());
		}
	}

	private void warnLater(Runnable lint, WebApplicationType type) {
		// A non-web application may end when its main thread does: an idle executor
		// thread would keep its JVM alive for the executor's keep-alive.
		Executor executor = (type != WebApplicationType.NONE) ? this.applicationTaskExecutor.getIfAvailable() : null;
		if (executor != null) {
			try {
				executor.execute(lint);
				return;
			}
			catch (RejectedExecutionException ex) {
				// Saturated or already shutting down: the findings are still worth a line
				// each.
			}
		}
		lint.run();
	}

	private void lint(Exposition exposition) {
		if (this.lintMode == Mode.OFF) {
			return;
		}
		LintReport report = this.liveMetrics.lint(exposition);
		List<LintFinding> findings = report.controllerFindings();
		if (this.lintMode == Mode.FAIL && !findings.isEmpty()) {
			throw new MetricsLintFailedException(findings);
		}
		findings.forEach((finding) -> logger.warn("Metric lint: {}", finding));
		if (!report.frameworkFindings().isEmpty()) {
			logger.debug("{} lint finding(s) on framework metrics, which the controller does not name: {}",
					report.frameworkFindings().size(), report.frameworkFindings());
		}
	}

}
