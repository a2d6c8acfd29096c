package dev.controllerobservability.internal.catalog;

import java.util.List;
import java.util.function.Predicate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

import dev.controllerobservability.catalog.ControllerMetrics;

/**
 * Runs the catalog's collectors at the start of every Prometheus scrape, on every path:
 * the core's composition root registers it with each {@link PrometheusMeterRegistry}
 * declared metrics are recorded in ({@link #registerWith}). The registry collects its
 * single-metric collectors before its multi-collectors, which hold every Micrometer
 * family, so the scrape sees the series the collectors just reported. It contributes no
 * metric of its own.
 * <p>
 * Every {@code collect} variant is overridden: the registry calls the unfiltered ones for
 * a plain scrape and the filtered ones for {@code ?includedNames=}, and the interface's
 * filtered defaults read the name of the snapshot this collector does not return. Having
 * no name, it is collected whatever the filter, so the refresh runs once per scrape
 * either way.
 */
public final class PrometheusCollectorRefresh implements Collector {

	private final ControllerMetrics metrics;

	/**
	 * Creates the refresh.
	 * @param metrics whose collectors run
	 */
	public PrometheusCollectorRefresh(ControllerMetrics metrics) {
		this.metrics = metrics;
	}

	/**
	 * Registers a refresh with the registry, if it is a {@code PrometheusMeterRegistry},
	 * or with each of its registries that is one, for a composite. Does nothing when the
	 * Prometheus client is not on the class path.
	 * @param registry the registry declared metrics are recorded in
	 * @param metrics whose collectors run
	 */
	public static void registerWith(MeterRegistry registry, ControllerMetrics metrics) {
		if (!CatalogHistograms.isPrometheusPresent()) {
			return;
		}
		Registration.registerWith(registry, metrics);
	}

	/** Apart, so that the Prometheus registry's classes load only when present. */
	private static final class Registration {

		static void registerWith(MeterRegistry registry, ControllerMetrics metrics) {
			List<MeterRegistry> registries = (registry instanceof CompositeMeterRegistry composite)
					? List.copyOf(composite.getRegistries()) : List.of(registry);
			for (MeterRegistry each : registries) {
				if (each instanceof PrometheusMeterRegistry prometheus) {
					prometheus.getPrometheusRegistry().register(new PrometheusCollectorRefresh(metrics));
				}
			}
		}

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
