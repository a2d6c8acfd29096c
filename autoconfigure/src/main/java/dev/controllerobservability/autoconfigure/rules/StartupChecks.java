package dev.controllerobservability.autoconfigure.rules;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import dev.controllerobservability.autoconfigure.LintProperties.Mode;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.lint.LintFinding;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.internal.rules.PromQl;
import dev.controllerobservability.internal.settings.ClosestName;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

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

	private static final Set<String> SAMPLE_SUFFIXES = Set.of("bucket", "count", "sum", "max");

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
		Set<String> known = declaredNames();
		// The scrape is needed before readiness only when a rule reads a metric nothing
		// declares, or for a lint that may stop the application.
		Exposition exposition = null;
		if (!readsOnly(known) || this.lintMode == Mode.FAIL) {
			exposition = this.liveMetrics.exposition();
			exposition.families().forEach((family) -> addSampleNames(known, family));
		}
		checkRules(known);
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

	/**
	 * Sample names of the declared families and the recording rules' names.
	 */
	private Set<String> declaredNames() {
		Set<String> known = new TreeSet<>();
		this.liveMetrics.declaredFamilies().forEach((family) -> addSampleNames(known, family));
		this.rules.recordingRules().forEach((rule) -> known.add(rule.name()));
		return known;
	}

	/**
	 * Whether every metric the rules read is among the given names.
	 */
	private boolean readsOnly(Set<String> known) {
		return this.rules.recordingRules()
			.stream()
			.allMatch((rule) -> known.containsAll(PromQl.metricNames(rule.expr())))
				&& this.rules.alerts()
					.stream()
					.allMatch((alert) -> known.containsAll(PromQl.metricNames(alert.expr())));
	}

	private void checkRules(Set<String> known) {
		for (RecordingRule rule : this.rules.recordingRules()) {
			check(known, "recording-rules[" + rule.name() + "].expr", rule.expr());
		}
		for (AlertRule alert : this.rules.alerts()) {
			check(known, "alerts." + alert.name() + ".expr", alert.expr());
		}
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

	private static void addSampleNames(Set<String> known, ExposedFamily family) {
		known.add(family.name());
		if (family.type().equals("histogram") || family.type().equals("summary")) {
			known.add(family.name() + "_count");
			known.add(family.name() + "_sum");
			known.add(family.name() + "_bucket");
		}
	}

	private void check(Set<String> known, String property, String expr) {
		for (String metric : PromQl.metricNames(expr)) {
			if (!known.contains(metric)) {
				String name = ControllerObservabilityProperties.PREFIX + "." + property;
				int disabled = disabledIndex(metric);
				if (disabled >= 0) {
					throw new InvalidObservabilityPropertyException(name, expr,
							"the expression reads " + metric + ", which " + ControllerObservabilityProperties.PREFIX
									+ ".disabled-metrics[" + disabled + "] (" + this.disabledMetrics.get(disabled)
									+ ") turns off, so the rule could never see it",
							"Remove " + this.disabledMetrics.get(disabled) + " from "
									+ ControllerObservabilityProperties.PREFIX + ".disabled-metrics, or stop the rule "
									+ "reading it");
				}
				String closest = ClosestName.of(metric, known);
				throw new InvalidObservabilityPropertyException(name, expr,
						"the expression reads " + metric + ", which the application neither exposes nor declares",
						((closest != null) ? "Did you mean " + closest + "? " : "")
								+ "Fix the metric name; to name an operation's metrics before its first call, list the "
								+ "operation under controller.observability.operations.definitions");
			}
		}
	}

	/**
	 * The index in {@code disabled-metrics} of the family a sample name belongs to, or
	 * -1: {@code x_bucket}, {@code x_count}, {@code x_sum} and the {@code x_max} of an
	 * operation belong to {@code x}.
	 */
	private int disabledIndex(String metric) {
		for (int i = 0; i < this.disabledMetrics.size(); i++) {
			String family = this.disabledMetrics.get(i);
			if (metric.equals(family) || (metric.startsWith(family + "_")
					&& SAMPLE_SUFFIXES.contains(metric.substring(family.length() + 1)))) {
				return i;
			}
		}
		return -1;
	}

}
