package dev.controllerobservability.internal.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.metrics.NativeHistogram;
import dev.controllerobservability.internal.metrics.WindowMax;

/**
 * Declared histograms as the starter's own {@link NativeHistogram} of
 * {@link NativeHistogram.Range#ALL_VALUES}, registered with the
 * {@link PrometheusRegistry} of a {@link PrometheusMeterRegistry}: every finite value in
 * its true classic bucket, and native buckets for Prometheus servers that ask for them. A
 * family keeps the shape the Micrometer distribution summary gave it: the same name,
 * help, labels (the common tags and the registry's tags as constant labels, from the
 * {@link NamingPolicy}) and a {@code _max} gauge of the last two minutes
 * ({@link WindowMax}), except for a histogram that counts negative values.
 */
final class PrometheusCatalogHistograms implements CatalogHistograms {

	private final PrometheusRegistry registry;

	private final Clock clock;

	private final NamingPolicy naming;

	private final ClaimedFamilies claimed;

	private final Map<String, Family> families = new ConcurrentHashMap<>();

	private PrometheusCatalogHistograms(PrometheusRegistry registry, Clock clock, NamingPolicy naming,
			ClaimedFamilies claimed) {
		this.registry = registry;
		this.clock = clock;
		this.naming = naming;
		this.claimed = claimed;
	}

	static @Nullable CatalogHistograms of(MeterRegistry registry, NamingPolicy naming, ClaimedFamilies claimed) {
		if (registry instanceof PrometheusMeterRegistry prometheus) {
			return new PrometheusCatalogHistograms(prometheus.getPrometheusRegistry(), registry.config().clock(),
					naming, claimed);
		}
		return null;
	}

	@Override
	public Series series(String family, String help, List<String> labelKeys, double[] buckets, boolean negative,
			Tags tags) {
		Family histogram = this.families.computeIfAbsent(family,
				(name) -> new Family(name, help, labelKeys, buckets, negative));
		return histogram.series(tags);
	}

	@Override
	public void remove(String family, Tags tags) {
		Family histogram = this.families.get(family);
		if (histogram != null) {
			histogram.remove(tags);
		}
	}

	/** One family: its histogram and, for values of 0 or more, its {@code _max}. */
	private final class Family {

		private final String[] labelNames;

		private final NativeHistogram histogram;

		private final @Nullable Map<List<String>, WindowMax> maxima;

		Family(String name, String help, List<String> labelKeys, double[] buckets, boolean negative) {
			this.labelNames = labelKeys.stream().sorted().toArray(String[]::new);
			List<Double> bounds = new ArrayList<>(buckets.length);
			for (double bucket : buckets) {
				bounds.add(bucket);
			}
			var constLabels = NativeHistogram.constantLabels(PrometheusCatalogHistograms.this.naming.controllerLabels(),
					this.labelNames);
			this.histogram = NativeHistogram.builder(name, help, bounds)
				.range(NativeHistogram.Range.ALL_VALUES)
				.labelNames(this.labelNames)
				.constLabels(constLabels)
				.build();
			this.maxima = negative ? null : new ConcurrentHashMap<>();
			List<String> names = negative ? List.of(name) : List.of(name, name + "_max");
			ClaimedFamilies claimed = PrometheusCatalogHistograms.this.claimed;
			String rename = "rename the declared histogram";
			if (!claimed.claim(names, "the declared histogram " + name, rename)) {
				throw claimed.taken("Histogram " + name, name, rename);
			}
			PrometheusRegistry registry = PrometheusCatalogHistograms.this.registry;
			try {
				this.histogram.register(registry);
				if (this.maxima != null) {
					registry.register(GaugeWithCallback.builder()
						.name(name + "_max")
						.help(help)
						.labelNames(this.labelNames)
						.constLabels(constLabels)
						.callback((callback) -> {
							long now = PrometheusCatalogHistograms.this.clock.monotonicTime();
							this.maxima.forEach(
									(values, window) -> callback.call(window.poll(now), values.toArray(String[]::new)));
						})
						.build());
				}
			}
			catch (RuntimeException ex) {
				// Both or neither: the next call tries the family again.
				this.histogram.unregister(registry);
				claimed.release(names);
				throw ex;
			}
		}

		void remove(Tags tags) {
			String[] values = values(tags);
			this.histogram.remove(values);
			if (this.maxima != null) {
				this.maxima.remove(List.of(values));
			}
		}

		Series series(Tags tags) {
			String[] values = values(tags);
			NativeHistogram.DataPoint point = this.histogram.labelValues(values);
			if (this.maxima == null) {
				return point::observe;
			}
			WindowMax window = this.maxima.computeIfAbsent(List.of(values),
					(key) -> new WindowMax(PrometheusCatalogHistograms.this.clock.monotonicTime()));
			return (value) -> {
				point.observe(value);
				window.record(value);
			};
		}

		private String[] values(Tags tags) {
			String[] values = new String[this.labelNames.length];
			for (Tag tag : tags) {
				for (int i = 0; i < values.length; i++) {
					if (this.labelNames[i].equals(tag.getKey())) {
						values[i] = tag.getValue();
					}
				}
			}
			for (int i = 0; i < values.length; i++) {
				if (values[i] == null) {
					values[i] = MetricConventions.NONE;
				}
			}
			return values;
		}

	}

}
