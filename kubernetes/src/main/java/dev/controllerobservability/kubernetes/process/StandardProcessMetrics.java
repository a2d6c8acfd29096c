package dev.controllerobservability.kubernetes.process;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The process metrics every Prometheus client library exposes under the same names, and
 * that dashboards for Go controllers chart: {@code process_cpu_seconds_total},
 * {@code process_resident_memory_bytes}, {@code process_virtual_memory_bytes},
 * {@code process_open_fds} and {@code process_max_fds}, read by prometheus-metrics-core's
 * {@link ProcessMetrics}. {@code process_start_time_seconds} is left out because
 * Micrometer already writes it, and Micrometer's own {@code process_*} meters stay as
 * they are. Without Spring, one call adds them and Micrometer's uptime meters
 * ({@code process_start_time_seconds}, {@code process_uptime_seconds}), which Spring Boot
 * would otherwise bind:
 *
 * <pre>{@code
 * StandardProcessMetrics.addTo(registry, registry.getPrometheusRegistry());
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

	private final Labels constantLabels;

	/**
	 * Adds the standard {@code process_*} families to an application without Spring:
	 * binds Micrometer's {@link UptimeMetrics} ({@code process_start_time_seconds} and
	 * {@code process_uptime_seconds}) to the meter registry and registers these families
	 * with the Prometheus registry, as the Spring Boot auto-configuration and Actuator do
	 * together.
	 * @param meterRegistry the registry Micrometer's uptime meters go to, such as a
	 * {@code PrometheusMeterRegistry}
	 * @param prometheusRegistry the registry the families are registered with, such as
	 * {@code PrometheusMeterRegistry.getPrometheusRegistry()}
	 * @return the registered families
	 */
	public static StandardProcessMetrics addTo(MeterRegistry meterRegistry, PrometheusRegistry prometheusRegistry) {
		new UptimeMetrics().bindTo(meterRegistry);
		return register(prometheusRegistry, Map.of());
	}

	/**
	 * Registers the families with a Prometheus registry, each series carrying the given
	 * labels.
	 * @param prometheusRegistry the registry to register them with
	 * @param constantLabels labels every series carries, such as the tags the registry
	 * gives every Micrometer meter ({@code management.metrics.tags}); empty for none
	 * @return the registered families
	 */
	public static StandardProcessMetrics register(PrometheusRegistry prometheusRegistry,
			Map<String, String> constantLabels) {
		StandardProcessMetrics metrics = new StandardProcessMetrics(constantLabels);
		prometheusRegistry.register(metrics);
		return metrics;
	}

	/**
	 * Creates the collector, which reads the process at every scrape.
	 */
	public StandardProcessMetrics() {
		this(Map.of());
	}

	/**
	 * Creates the collector with labels every series carries, such as the tags the
	 * registry gives every Micrometer meter ({@code management.metrics.tags}).
	 * @param constantLabels the labels and their values
	 */
	public StandardProcessMetrics(Map<String, String> constantLabels) {
		ProcessMetrics.builder().register(this.source);
		Map<String, String> sorted = new TreeMap<>(constantLabels);
		this.constantLabels = Labels.of(List.copyOf(sorted.keySet()), List.copyOf(sorted.values()));
	}

	@Override
	public MetricSnapshots collect() {
		return collect((name) -> true);
	}

	@Override
	public MetricSnapshots collect(Predicate<String> includedNames) {
		return labelled(this.source.scrape(withoutStartTime(includedNames)));
	}

	@Override
	public MetricSnapshots collect(PrometheusScrapeRequest scrapeRequest) {
		return collect((name) -> true, scrapeRequest);
	}

	@Override
	public MetricSnapshots collect(Predicate<String> includedNames, PrometheusScrapeRequest scrapeRequest) {
		return labelled(this.source.scrape(withoutStartTime(includedNames), scrapeRequest));
	}

	/** The snapshots with the constant labels on every data point. */
	private MetricSnapshots labelled(MetricSnapshots snapshots) {
		if (this.constantLabels.isEmpty()) {
			return snapshots;
		}
		MetricSnapshots.Builder labelled = MetricSnapshots.builder();
		for (MetricSnapshot snapshot : snapshots) {
			MetricMetadata metadata = snapshot.getMetadata();
			if (snapshot instanceof CounterSnapshot counter) {
				CounterSnapshot.Builder builder = CounterSnapshot.builder()
					.name(metadata.getName())
					.help(metadata.getHelp())
					.unit(metadata.getUnit());
				for (CounterDataPointSnapshot point : counter.getDataPoints()) {
					builder.dataPoint(CounterDataPointSnapshot.builder()
						.value(point.getValue())
						.labels(point.getLabels().merge(this.constantLabels))
						.build());
				}
				labelled.metricSnapshot(builder.build());
			}
			else if (snapshot instanceof GaugeSnapshot gauge) {
				GaugeSnapshot.Builder builder = GaugeSnapshot.builder()
					.name(metadata.getName())
					.help(metadata.getHelp())
					.unit(metadata.getUnit());
				for (GaugeDataPointSnapshot point : gauge.getDataPoints()) {
					builder.dataPoint(GaugeDataPointSnapshot.builder()
						.value(point.getValue())
						.labels(point.getLabels().merge(this.constantLabels))
						.build());
				}
				labelled.metricSnapshot(builder.build());
			}
			else {
				labelled.metricSnapshot(snapshot);
			}
		}
		return labelled.build();
	}

	@Override
	public List<String> getPrometheusNames() {
		return NAMES;
	}

	private static Predicate<String> withoutStartTime(Predicate<String> includedNames) {
		return (name) -> !START_TIME.equals(name) && includedNames.test(name);
	}

}
