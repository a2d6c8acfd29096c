package dev.controllerobservability.autoconfigure.endpoint;

import java.util.List;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import dev.controllerobservability.lint.LintFinding;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.live.LiveMetrics;

/**
 * {@code /actuator/controllermetricslint}: the lint findings of the current scrape,
 * controller and framework metrics apart. Not exposed unless listed in
 * {@code management.endpoints.web.exposure.include}. A call scrapes only when a meter was
 * added or removed since the previous one (see {@link LiveMetrics#lint()}).
 */
@Endpoint(id = "controllermetricslint")
public class ControllerMetricsLintEndpoint {

	private final LiveMetrics liveMetrics;

	public ControllerMetricsLintEndpoint(LiveMetrics liveMetrics) {
		this.liveMetrics = liveMetrics;
	}

	/**
	 * Lints the current scrape, or returns the previous findings while the meters are
	 * unchanged.
	 * @return the findings
	 */
	@ReadOperation
	public LintFindings lint() {
		LintReport report = this.liveMetrics.lint();
		return new LintFindings(report.controllerFindings(), report.frameworkFindings());
	}

	/**
	 * The endpoint's JSON.
	 *
	 * @param controller findings on the controller's metrics
	 * @param framework findings on framework metrics
	 */
	public record LintFindings(List<LintFinding> controller, List<LintFinding> framework) {
	}

}
