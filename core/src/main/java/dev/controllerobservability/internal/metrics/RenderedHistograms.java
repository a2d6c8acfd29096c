package dev.controllerobservability.internal.metrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The starter's histograms of each {@link PrometheusRegistry}, which {@link ScrapeWriter}
 * renders itself: the one place they are registered, so that every scrape path, with or
 * without Spring, finds them from the registry alone. A registry is held weakly: it and
 * its histograms go when the application drops it.
 */
final class RenderedHistograms {

	private static final Map<PrometheusRegistry, Set<NativeHistogram>> HISTOGRAMS = new WeakHashMap<>();

	private RenderedHistograms() {
	}

	static void register(PrometheusRegistry registry, NativeHistogram histogram) {
		// Under the lock, so that a scrape never sees one registered and not the other.
		synchronized (HISTOGRAMS) {
			registry.register(histogram);
			HISTOGRAMS.computeIfAbsent(registry, (key) -> new LinkedHashSet<>()).add(histogram);
		}
	}

	static void unregister(PrometheusRegistry registry, NativeHistogram histogram) {
		synchronized (HISTOGRAMS) {
			registry.unregister(histogram);
			Set<NativeHistogram> histograms = HISTOGRAMS.get(registry);
			if (histograms != null) {
				histograms.remove(histogram);
			}
		}
	}

	/**
	 * The histograms registered with a registry now.
	 * @param registry the registry
	 * @return its histograms, in the order they were registered
	 */
	static List<NativeHistogram> of(PrometheusRegistry registry) {
		synchronized (HISTOGRAMS) {
			Set<NativeHistogram> histograms = HISTOGRAMS.get(registry);
			return (histograms != null) ? new ArrayList<>(histograms) : List.of();
		}
	}

}
