package dev.controllerobservability.lint;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class MetricsLinterTests {

	private final MetricsLinter linter = new MetricsLinter("karpenter", Set.of("node_name"), List.of());

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = {
			"no help|# TYPE karpenter_x_total counter\\nkarpenter_x_total 1|# HELP karpenter_x_total X.\\n# TYPE karpenter_x_total counter\\nkarpenter_x_total 1|no help text",
			"base unit|# HELP karpenter_wait_milliseconds W.\\n# TYPE karpenter_wait_milliseconds gauge\\nkarpenter_wait_milliseconds 1|# HELP karpenter_wait_seconds W.\\n# TYPE karpenter_wait_seconds gauge\\nkarpenter_wait_seconds 1|use base unit \"seconds\" instead of \"milliseconds\"",
			"counter total|# HELP karpenter_nodes N.\\n# TYPE karpenter_nodes counter\\nkarpenter_nodes 1|# HELP karpenter_nodes_total N.\\n# TYPE karpenter_nodes_total counter\\nkarpenter_nodes_total 1|counter metrics should have \"_total\" suffix",
			"non-counter total|# HELP karpenter_pods_total P.\\n# TYPE karpenter_pods_total gauge\\nkarpenter_pods_total 1|# HELP karpenter_pods P.\\n# TYPE karpenter_pods gauge\\nkarpenter_pods 1|non-counter metrics should not have \"_total\" suffix",
			"bucket suffix|# HELP karpenter_x_bucket X.\\n# TYPE karpenter_x_bucket gauge\\nkarpenter_x_bucket 1|# HELP karpenter_x_buckets X.\\n# TYPE karpenter_x_buckets gauge\\nkarpenter_x_buckets 1|non-histogram metrics should not have \"_bucket\" suffix",
			"count suffix|# HELP karpenter_pods_count P.\\n# TYPE karpenter_pods_count gauge\\nkarpenter_pods_count 1|# HELP karpenter_pods P.\\n# TYPE karpenter_pods gauge\\nkarpenter_pods 1|non-histogram and non-summary metrics should not have \"_count\" suffix",
			"sum suffix|# HELP karpenter_cpu_sum C.\\n# TYPE karpenter_cpu_sum gauge\\nkarpenter_cpu_sum 1|# HELP karpenter_cpu C.\\n# TYPE karpenter_cpu gauge\\nkarpenter_cpu 1|non-histogram and non-summary metrics should not have \"_sum\" suffix",
			"le label|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{le=\"1\"} 1|# HELP karpenter_x X.\\n# TYPE karpenter_x histogram\\nkarpenter_x_bucket{le=\"1\"} 1\\nkarpenter_x_bucket{le=\"+Inf\"} 1\\nkarpenter_x_count 1\\nkarpenter_x_sum 1|non-histogram metrics should not have \"le\" label",
			"quantile label|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{quantile=\"0.5\"} 1|# HELP karpenter_x X.\\n# TYPE karpenter_x summary\\nkarpenter_x{quantile=\"0.5\"} 1\\nkarpenter_x_count 1\\nkarpenter_x_sum 1|non-summary metrics should not have \"quantile\" label",
			"type in name|# HELP karpenter_queue_gauge Q.\\n# TYPE karpenter_queue_gauge gauge\\nkarpenter_queue_gauge 1|# HELP karpenter_queue_depth Q.\\n# TYPE karpenter_queue_depth gauge\\nkarpenter_queue_depth 1|metric name should not include type 'gauge'",
			"colon|# HELP karpenter:x X.\\n# TYPE karpenter:x gauge\\nkarpenter:x 1|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x 1|metric names should not contain ':'",
			"camel case name|# HELP karpenter_podCount P.\\n# TYPE karpenter_podCount gauge\\nkarpenter_podCount 1|# HELP karpenter_pod_count_total P.\\n# TYPE karpenter_pod_count_total counter\\nkarpenter_pod_count_total 1|metric names should be written in 'snake_case' not 'camelCase'",
			"camel case label|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{nodePool=\"a\"} 1|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{node_pool=\"a\"} 1|label names should be written in 'snake_case' not 'camelCase'",
			"abbreviated unit|# HELP karpenter_wait_ms W.\\n# TYPE karpenter_wait_ms gauge\\nkarpenter_wait_ms 1|# HELP karpenter_wait_seconds W.\\n# TYPE karpenter_wait_seconds gauge\\nkarpenter_wait_seconds 1|metric names should not contain abbreviated units",
			"namespace|# HELP nodes_total N.\\n# TYPE nodes_total counter\\nnodes_total 1|# HELP karpenter_nodes_total N.\\n# TYPE karpenter_nodes_total counter\\nkarpenter_nodes_total 1|metric names should start with the controller's namespace \"karpenter_\"",
			"same label names|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{a=\"1\"} 1\\nkarpenter_x{a=\"2\",b=\"3\"} 1|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{a=\"1\",b=\"2\"} 1\\nkarpenter_x{a=\"2\",b=\"3\"} 1|series should all have the same label names, but have [a] and [a, b]",
			"unbounded label|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{pod_uid=\"1\"} 1|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x{node_name=\"n\"} 1|label \"pod_uid\" suggests an unbounded value; allow it with the allowedLabels of new MetricsLinter(…) if it is bounded",
			"exposed twice|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x 1\\n# TYPE karpenter_x gauge|# HELP karpenter_x X.\\n# TYPE karpenter_x gauge\\nkarpenter_x 1|metric name is exposed more than once" })
	void reportsEachRuleWithItsExactTextAndPassesTheFixedMetric(String rule, String failing, String passing,
			String expected) {
		LintReport report = this.linter.lint(Exposition.parse(failing.replace("\\n", "\n")));
		assertThat(report.findings()).extracting(LintFinding::text).contains(expected);
		assertThat(this.linter.lint(Exposition.parse(passing.replace("\\n", "\n"))).findings()).isEmpty();
	}

	@Test
	void takesTheLabelsThatNameTheObjectOfAPerObjectMetricForBounded() {
		Exposition scrape = Exposition.parse("""
				# HELP karpenter_certificate_ready_status Ready.
				# TYPE karpenter_certificate_ready_status gauge
				karpenter_certificate_ready_status{name="web",namespace="prod",pod_name="p"} 1
				""");
		assertThat(this.linter
			.lint(scrape, List.of(), Map.of("karpenter_certificate_ready_status", Set.of("namespace", "name")))
			.findings()).extracting(LintFinding::text)
			.containsExactly("label \"pod_name\" suggests an unbounded value; allow it with the allowedLabels of "
					+ "new MetricsLinter(…) if it is bounded");
		assertThat(this.linter.lint(scrape).findings()).extracting(LintFinding::text)
			.anyMatch((text) -> text.startsWith("label \"name\" suggests an unbounded value"));
	}

	@Test
	void separatesControllerFindingsFromFrameworkFindings() {
		LintReport report = this.linter.lint(Exposition.parse("""
				# HELP jvm_compilation_time_ms_total Compilation time.
				# TYPE jvm_compilation_time_ms_total counter
				jvm_compilation_time_ms_total 1
				# HELP karpenter_wait_ms Wait.
				# TYPE karpenter_wait_ms gauge
				karpenter_wait_ms 1
				"""));
		assertThat(report.frameworkFindings()).extracting(LintFinding::toString)
			.containsExactly("jvm_compilation_time_ms_total metric names should not contain abbreviated units");
		assertThat(report.controllerFindings()).extracting(LintFinding::toString)
			.containsExactly("karpenter_wait_ms metric names should not contain abbreviated units");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(report::assertNoControllerFindings)
			.withMessage("Controller metrics have 1 lint finding(s):\n"
					+ "karpenter_wait_ms metric names should not contain abbreviated units");
	}

	@Test
	void treatsAnEmptyOrBlankHelpLineAsNoHelpAsPromtoolDoes() {
		LintReport report = this.linter.lint(Exposition.parse("""
				# HELP http_server_requests_seconds_max\s
				# TYPE http_server_requests_seconds_max gauge
				http_server_requests_seconds_max{uri="/"} 0.05
				# HELP tomcat_sessions_active_max \t\s
				# TYPE tomcat_sessions_active_max gauge
				tomcat_sessions_active_max 0
				# HELP karpenter_pods
				# TYPE karpenter_pods gauge
				karpenter_pods 1
				# HELP karpenter_nodes \\n
				# TYPE karpenter_nodes gauge
				karpenter_nodes 1
				"""));
		assertThat(report.frameworkFindings()).extracting(LintFinding::toString)
			.containsExactly("http_server_requests_seconds_max no help text",
					"tomcat_sessions_active_max no help text");
		assertThat(report.controllerFindings()).extracting(LintFinding::toString)
			.containsExactly("karpenter_pods no help text");
	}

	@Test
	void lintsDeclaredFamiliesTheScrapeDoesNotExposeYetAndExposedOnesOnce() {
		Exposition scrape = Exposition.parse("""
				# HELP karpenter_renewal_time_ms_total Renewal time.
				# TYPE karpenter_renewal_time_ms_total counter
				karpenter_renewal_time_ms_total 1
				""");
		List<ExposedFamily> declared = List.of(
				new ExposedFamily("karpenter_renewals_ms", "gauge", "Renewals.", List.of(Map.of("lease", "")),
						List.of()),
				new ExposedFamily("karpenter_renewal_time_ms_total", "counter", "Renewal time.", List.of(Map.of()),
						List.of()));
		assertThat(this.linter.lint(scrape, declared).controllerFindings()).extracting(LintFinding::toString)
			.containsExactly("karpenter_renewal_time_ms_total metric names should not contain abbreviated units",
					"karpenter_renewals_ms metric names should not contain abbreviated units");
		assertThat(this.linter.lint(scrape).controllerFindings()).extracting(LintFinding::metric)
			.containsExactly("karpenter_renewal_time_ms_total");
	}

	@Test
	void keepsKubernetesStandardNamesAndLabelsButHoldsThemToPromtoolsRules() {
		LintReport report = this.linter.lint(Exposition.parse("""
				# HELP workqueue_depth Current depth of workqueue.
				# TYPE workqueue_depth gauge
				workqueue_depth{controller="provisioner",name="provisioner"} 0
				# HELP rest_client_requests_total Number of HTTP requests.
				# TYPE rest_client_requests_total counter
				rest_client_requests_total{code="200",host="10.0.0.1:443",method="GET"} 1
				# HELP controller_runtime_reconcile_time_ms Reconcile time.
				# TYPE controller_runtime_reconcile_time_ms gauge
				controller_runtime_reconcile_time_ms{controller="provisioner"} 1
				"""));
		// No namespace finding and no "name" label finding: dashboards query these as
		// they
		// are. A promtool finding on one of them is the controller's to fix, not a
		// framework's.
		assertThat(report.frameworkFindings()).isEmpty();
		assertThat(report.controllerFindings()).extracting(LintFinding::toString)
			.containsExactly("controller_runtime_reconcile_time_ms metric names should not contain abbreviated units");
		assertThat(this.linter.isFramework("workqueue_depth")).isFalse();
	}

}
