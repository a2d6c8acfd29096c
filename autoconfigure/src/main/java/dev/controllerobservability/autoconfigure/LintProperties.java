package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.List;

/**
 * Linting of the exposed metrics.
 */
public class LintProperties {

	/**
	 * What to do with findings on controller metrics once the application is ready: off,
	 * warn (log them) or fail (stop with a failure analysis).
	 */
	private Mode mode = Mode.WARN;

	/**
	 * Label names that look unbounded (such as node_name) but are bounded in this
	 * controller.
	 */
	private List<String> allowedLabels = new ArrayList<>();

	/**
	 * Name prefixes of framework metrics besides the usual ones (jvm, process, http,
	 * ...); their findings are reported separately and never fail start-up.
	 */
	private List<String> frameworkPrefixes = new ArrayList<>();

	public Mode getMode() {
		return this.mode;
	}

	public void setMode(Mode mode) {
		this.mode = mode;
	}

	public List<String> getAllowedLabels() {
		return this.allowedLabels;
	}

	public void setAllowedLabels(List<String> allowedLabels) {
		this.allowedLabels = allowedLabels;
	}

	public List<String> getFrameworkPrefixes() {
		return this.frameworkPrefixes;
	}

	public void setFrameworkPrefixes(List<String> frameworkPrefixes) {
		this.frameworkPrefixes = frameworkPrefixes;
	}

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
