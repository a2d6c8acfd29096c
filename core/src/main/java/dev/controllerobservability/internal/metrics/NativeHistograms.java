package dev.controllerobservability.internal.metrics;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.prometheus.metrics.core.metrics.Histogram;

/**
 * Histograms as controller-runtime declares them: classic buckets and, at once, native
 * buckets (bucket factor 1.1, at most 100 buckets, reset after an hour). Micrometer has
 * no native histograms, so these are prometheus-metrics-core histograms, registered
 * straight with the application's {@code PrometheusRegistry}. The text format carries
 * their classic buckets; the protobuf format, which Prometheus asks for when native
 * histograms are enabled, carries both.
 */
public final class NativeHistograms {

	/**
	 * Native histogram schema: client_golang turns controller-runtime's bucket factor 1.1
	 * into schema 3, whose buckets grow by 2^(1/8) (about 1.09).
	 */
	public static final int SCHEMA = 3;

	/** Most native buckets kept before they are widened. */
	public static final int MAX_BUCKETS = 100;

	/** How often a native histogram may start over with fine buckets. */
	public static final Duration RESET = Duration.ofHours(1);

	private NativeHistograms() {
	}

	/**
	 * A builder of a histogram with classic and native buckets and no exemplars.
	 * @param name the Prometheus name, such as {@code workqueue_work_duration_seconds}
	 * @param help its help text
	 * @param classicBuckets classic upper bounds in seconds, ascending
	 * @return the builder, for labels and registration
	 */
	public static Histogram.Builder builder(String name, String help, List<Double> classicBuckets) {
		return Histogram.builder()
			.name(name)
			.help(help)
			.classicUpperBounds(classicBuckets.stream().mapToDouble(Double::doubleValue).toArray())
			.nativeInitialSchema(SCHEMA)
			.nativeMaxNumberOfBuckets(MAX_BUCKETS)
			.nativeResetDuration(RESET.toMinutes(), TimeUnit.MINUTES)
			.withoutExemplars();
	}

}
