package dev.controllerobservability.autoconfigure;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

import dev.controllerobservability.catalog.ControllerMetrics;

/**
 * Runs the catalog's collectors at the start of every Prometheus scrape. Registered as
 * the first single-metric collector of the registry, it is collected before every
 * Micrometer family, so the scrape sees the series the collectors just reported. It
 * contributes no metric of its own.
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

}
