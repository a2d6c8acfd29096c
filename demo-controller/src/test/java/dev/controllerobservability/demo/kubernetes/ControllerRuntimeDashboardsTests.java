package dev.controllerobservability.demo.kubernetes;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import dev.controllerobservability.test.PrometheusSample;
import dev.controllerobservability.test.PrometheusServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo in kubernetes mode, scraped every second by real Prometheus servers, shows
 * every panel of the two dashboards kubebuilder's Grafana plugin generates for
 * controller-runtime controllers, and answers the native-histogram queries newer
 * dashboards make. Classic queries go to a server without native histograms (Prometheus
 * 2.42 with the feature flag keeps only the native form of a histogram that has both),
 * native ones to a server with {@code --enable-feature=native-histograms}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "demo.mode=kubernetes", "demo.round-interval=100ms", "demo.min-launch-latency=1ms",
				"demo.max-launch-latency=5ms" })
@AutoConfigureMetrics
@DirtiesContext
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControllerRuntimeDashboardsTests {

	/**
	 * Every query of kubebuilder's controller-runtime metrics dashboard
	 * ({@code pkg/plugins/optional/grafana/v1alpha/scaffolds/internal/templates/runtime.go})
	 * and controller resources metrics dashboard ({@code resources.go}), panels and
	 * template variables, as written there (kubebuilder 5c400728).
	 */
	static final List<String> KUBEBUILDER_DASHBOARDS = List.of(
			"controller_runtime_active_workers{job=\"$job\", namespace=\"$namespace\"}",
			"sum(rate(controller_runtime_reconcile_total{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, pod)",
			"sum(rate(controller_runtime_reconcile_errors_total{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, pod)",
			"workqueue_depth{job=\"$job\", namespace=\"$namespace\"}",
			"histogram_quantile(0.50, sum(rate(workqueue_queue_duration_seconds_bucket{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name, le))",
			"histogram_quantile(0.90, sum(rate(workqueue_queue_duration_seconds_bucket{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name, le))",
			"histogram_quantile(0.99, sum(rate(workqueue_queue_duration_seconds_bucket{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name, le))",
			"sum(rate(workqueue_adds_total{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name)",
			"rate(workqueue_unfinished_work_seconds{job=\"$job\", namespace=\"$namespace\"}[5m])",
			"histogram_quantile(0.50, sum(rate(workqueue_work_duration_seconds_bucket{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name, le))",
			"histogram_quantile(0.90, sum(rate(workqueue_work_duration_seconds_bucket{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name, le))",
			"histogram_quantile(0.99, sum(rate(workqueue_work_duration_seconds_bucket{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name, le))",
			"sum(rate(workqueue_retries_total{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, name)",
			"label_values(controller_runtime_reconcile_total{namespace=~\"$namespace\"}, job)",
			"label_values(controller_runtime_reconcile_total, namespace)",
			"label_values(controller_runtime_reconcile_total{namespace=~\"$namespace\", job=~\"$job\"}, pod)",
			"rate(process_cpu_seconds_total{job=\"$job\", namespace=\"$namespace\", pod=\"$pod\"}[5m]) * 100",
			"process_resident_memory_bytes{job=\"$job\", namespace=\"$namespace\", pod=\"$pod\"}");

	/** Queries only native histograms answer: the family name with no {@code _bucket}. */
	static final List<String> NATIVE_HISTOGRAM_QUERIES = List.of(
			"histogram_quantile(0.99, rate(controller_runtime_reconcile_time_seconds[1m]))",
			"histogram_quantile(0.99, sum by (name) (rate(workqueue_queue_duration_seconds[1m])))",
			"histogram_quantile(0.99, sum by (name) (rate(workqueue_work_duration_seconds[1m])))");

	private static final Pattern VARIABLE_MATCHER = Pattern.compile("(\\w+)=~?\"\\$\\w+\"");

	private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+), (\\w+)\\)");

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	@LocalServerPort
	private int port;

	private PrometheusServer classic;

	private PrometheusServer nativeHistograms;

	@BeforeAll
	void startPrometheus() {
		this.classic = PrometheusServer.scraping(this.port).start().awaitTargetsUp(TIMEOUT);
		this.nativeHistograms = PrometheusServer.scraping(this.port)
			.flags("--enable-feature=native-histograms")
			.start()
			.awaitTargetsUp(TIMEOUT);
	}

	@AfterAll
	void stopPrometheus() {
		for (PrometheusServer server : new PrometheusServer[] { this.classic, this.nativeHistograms }) {
			if (server != null) {
				server.close();
			}
		}
	}

	@ParameterizedTest
	@FieldSource("KUBEBUILDER_DASHBOARDS")
	void answersEveryKubebuilderDashboardQuery(String dashboardQuery) {
		String promql = promql(dashboardQuery);
		List<PrometheusSample> samples = this.classic.awaitQuery(promql, ControllerRuntimeDashboardsTests::hasNumbers,
				TIMEOUT);
		assertThat(samples).as(promql).anySatisfy((sample) -> assertThat(sample.value()).isNotNaN());
	}

	@ParameterizedTest
	@FieldSource("NATIVE_HISTOGRAM_QUERIES")
	void answersNativeHistogramQueries(String promql) {
		List<PrometheusSample> samples = this.nativeHistograms.awaitQuery(promql,
				ControllerRuntimeDashboardsTests::hasNumbers, TIMEOUT);
		assertThat(samples).as(promql).anySatisfy((sample) -> assertThat(sample.value()).isPositive());
	}

	/**
	 * A dashboard query as Prometheus runs it: every template variable matches anything,
	 * ranges are one minute (a few scrapes suffice), and Grafana's {@code label_values}
	 * becomes the PromQL it runs.
	 */
	static String promql(String dashboardQuery) {
		String promql = VARIABLE_MATCHER.matcher(dashboardQuery).replaceAll("$1=~\".*\"").replace("[5m]", "[1m]");
		Matcher labelValues = LABEL_VALUES.matcher(promql);
		return labelValues.matches() ? "group by (" + labelValues.group(2) + ") (" + labelValues.group(1) + ")"
				: promql;
	}

	private static boolean hasNumbers(List<PrometheusSample> samples) {
		return samples.stream().anyMatch((sample) -> !Double.isNaN(sample.value()));
	}

}
