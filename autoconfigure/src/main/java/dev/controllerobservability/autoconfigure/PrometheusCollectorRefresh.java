package dev.controllerobservability.autoconfigure;

import java.util.function.Predicate;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

import dev.controllerobservability.catalog.ControllerMetrics;

/**
 * Runs the catalog's collectors at the start of every Prometheus scrape. The registry
 * collects its single-metric collectors before its multi-collectors, which hold every
 * Micrometer family, so the scrape sees the series the collectors just reported. It
 * contributes no metric of its own.
 * <p>
 * Every {@code collect} variant is overridden: the registry calls the unfiltered ones for
 * a plain scrape and the filtered ones for {@code ?includedNames=}, and the interface's
 * filtered defaults read the name of the snapshot this collector does not return. Having
 * no name, it is collected whatever the filter, so the refresh runs once per scrape
 * either way.
 */
class PrometheusCollectorRefresh implements Collector {

	private final ControllerMetrics metrics;

	PrometheusCollectorRefresh(ControllerMetrics metrics) {
		this.metrics = metrics;
	}

	@Override
	public MetricSnapshot collect() {
		this.metrics.refreshCollectors();
		return null;
	}

	@Override
	public MetricSnapshot collect(PrometheusScrapeRequest scrapeRequest) {
		return collect();
	}

	@Override
	public MetricSnapshot collect(Predicate<String> includedNames) {
		return collect();
	}

	@Override
	public MetricSnapshot collect(Predicate<String> includedNames, PrometheusScrapeRequest scrapeRequest) {
		return collect();
	}

	/**
	 * No name, so that a filtered scrape never skips the refresh.
	 * @return {@code null}
	 */
	@Override
	public String getPrometheusName() {
		return null;
	}

}
