package dev.controllerobservability.autoconfigure;

import java.util.List;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Linting of the exposed metrics.
 *
 * @param mode What to do with findings on controller metrics once the application is
 * ready: off, warn (log them) or fail (stop with a failure analysis).
 * @param allowedLabels Label names that look unbounded (such as node_name) but are
 * bounded in this controller.
 * @param frameworkPrefixes Name prefixes of framework metrics besides the usual ones
 * (jvm, process, http, ...); their findings are reported separately and never fail
 * start-up.
 */
public record LintProperties(@DefaultValue("warn") Mode mode, @DefaultValue List<String> allowedLabels,
		@DefaultValue List<String> frameworkPrefixes) {

	/**
	 * What start-up does with lint findings.
	 */
	public enum Mode {

		/** Do not lint. */
		OFF,

		/** Log findings on controller metrics as warnings. */
		WARN,

		/** Stop start-up when a controller metric has a finding. */
		FAIL

	}

}
