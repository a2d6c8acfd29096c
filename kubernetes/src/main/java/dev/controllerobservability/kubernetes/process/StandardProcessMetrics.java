package dev.controllerobservability.kubernetes.process;

import java.util.List;
import java.util.function.Predicate;

import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The process metrics every Prometheus client library exposes under the same names, and
 * that dashboards for Go controllers chart: {@code process_cpu_seconds_total},
 * {@code process_resident_memory_bytes}, {@code process_virtual_memory_bytes},
 * {@code process_open_fds} and {@code process_max_fds}, read by prometheus-metrics-core's
 * {@link ProcessMetrics}. {@code process_start_time_seconds} is left out because
 * Micrometer already writes it, and Micrometer's own {@code process_*} meters stay as
 * they are. Register it on the application's Prometheus registry:
 *
 * <pre>{@code
 * prometheusRegistry.register(new StandardProcessMetrics());
 * }</pre>
 */
public final class StandardProcessMetrics implements MultiCollector {

	/** The family Micrometer's uptime metrics write already. */
	static final String START_TIME = "process_start_time_seconds";

	/**
	 * The families added, as prometheus-metrics-core names them (counters without
	 * {@code _total}).
	 */
	static final List<String> NAMES = List.of("process_cpu_seconds", "process_resident_memory_bytes",
			"process_virtual_memory_bytes", "process_open_fds", "process_max_fds");

	private final PrometheusRegistry source = new PrometheusRegistry();

	/**
	 * Creates the collector, which reads the process at every scrape.
	 */
	public StandardProcessMetrics() {
		ProcessMetrics.builder().register(this.source);
	}

	@Override
	public MetricSnapshots collect() {
		return collect((name) -> true);
	}

	@Override
	public MetricSnapshots collect(Predicate<String> includedNames) {
		return this.source.scrape(withoutStartTime(includedNames));
	}

	@Override
	public MetricSnapshots collect(PrometheusScrapeRequest scrapeRequest) {
		return collect((name) -> true, scrapeRequest);
	}

	@Override
	public MetricSnapshots collect(Predicate<String> includedNames, PrometheusScrapeRequest scrapeRequest) {
		return this.source.scrape(withoutStartTime(includedNames), scrapeRequest);
	}

	@Override
	public List<String> getPrometheusNames() {
		return NAMES;
	}

	private static Predicate<String> withoutStartTime(Predicate<String> includedNames) {
		return (name) -> !START_TIME.equals(name) && includedNames.test(name);
	}

}
