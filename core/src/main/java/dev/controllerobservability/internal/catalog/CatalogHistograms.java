package dev.controllerobservability.internal.catalog;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.NamingPolicy;

/**
 * Where declared histograms are recorded exactly, when the registry allows it: on a
 * Micrometer {@code PrometheusMeterRegistry}, into the starter's own histograms
 * registered with its {@code PrometheusRegistry} ({@link PrometheusCatalogHistograms}).
 * No other registry can be given exact buckets: Micrometer rounds a distribution
 * summary's values up to a whole number before it picks their bucket. This type names no
 * Prometheus class, so that the Prometheus client is loaded only when the registry is
 * one.
 */
public interface CatalogHistograms {

	/**
	 * The series of one declared histogram's family, registered on first use.
	 * @param family the exposed family name, such as {@code karpenter_packing_ratio}
	 * @param help the help text
	 * @param labelKeys the declared label keys
	 * @param buckets the classic bucket boundaries
	 * @param negative whether the histogram counts negative values; it has no
	 * {@code _max} then, since a window of negative values has no maximum to show when it
	 * is empty
	 * @param tags the series' labels, one per key
	 * @return the series
	 * @throws IllegalStateException if the family's name is held by a Micrometer meter
	 */
	Series series(String family, String help, List<String> labelKeys, double[] buckets, boolean negative, Tags tags);

	/**
	 * Removes one series of a family, and its {@code _max}: a later {@link #series} call
	 * starts it anew from zero.
	 * @param family the exposed family name
	 * @param tags the series' labels
	 */
	void remove(String family, Tags tags);

	/**
	 * The exact histograms of a registry, if it is a {@code PrometheusMeterRegistry}.
	 * @param registry the registry declared metrics are recorded in
	 * @param naming the constant labels of controller metrics
	 * @param claimed where the families are claimed, so that no Micrometer meter takes
	 * their names
	 * @return the histograms, or {@code null} when the registry is of another kind, or
	 * the Prometheus client is not on the class path
	 */
	static @Nullable CatalogHistograms of(MeterRegistry registry, NamingPolicy naming, ClaimedFamilies claimed) {
		if (!isPrometheusPresent()) {
			return null;
		}
		return PrometheusCatalogHistograms.of(registry, naming, claimed);
	}

	/**
	 * Whether Micrometer's Prometheus registry and the Prometheus client are on the class
	 * path.
	 * @return whether they are
	 */
	static boolean isPrometheusPresent() {
		return isPresent("io.micrometer.prometheusmetrics.PrometheusMeterRegistry")
				&& isPresent("io.prometheus.metrics.model.registry.PrometheusRegistry");
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, CatalogHistograms.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	/** One series of a histogram. */
	@FunctionalInterface
	interface Series {

		/**
		 * Counts a finite value in its bucket.
		 * @param value the value
		 */
		void observe(double value);

	}

}
