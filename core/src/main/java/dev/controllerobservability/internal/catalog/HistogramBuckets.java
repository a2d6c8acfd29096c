package dev.controllerobservability.internal.catalog;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.stability.StabilityPolicy;

/**
 * The rule that keeps every declared histogram exact on a registry where it is a
 * Micrometer distribution summary (any registry but a {@code PrometheusMeterRegistry},
 * whose histograms are the starter's own, {@link CatalogHistograms}). Micrometer rounds
 * each value up to a whole number of at most {@code Long.MAX_VALUE} before it picks its
 * bucket, and drops negative values: the bucket is right for every value when each
 * boundary is a whole number below 2^63 and the histogram counts no negative values.
 * Another histogram is refused, unless the registry is Micrometer's own
 * {@link SimpleMeterRegistry}, which nothing scrapes (Spring Boot's registry when no
 * export is on) and the histogram counts no negative values: there it is recorded without
 * buckets, its count, sum and maximum exact.
 */
public final class HistogramBuckets {

	private HistogramBuckets() {
	}

	/**
	 * Checks every exposed histogram of a catalog against the registry it is recorded in.
	 * @param registry the registry
	 * @param exact whether histograms are recorded exactly there
	 * ({@link CatalogHistograms#of} found them)
	 * @param catalog the declared metrics
	 * @param policy which of them are exposed
	 * @param defaultBuckets the buckets of histograms declared without their own
	 * @param settingNames how the message names the default buckets' setting
	 * @return the names of the histograms recorded without buckets
	 * @throws InvalidMetricDefinitionException for the first histogram whose buckets
	 * would be wrong
	 * @throws dev.controllerobservability.InvalidSettingException naming the default
	 * buckets when they are the wrong ones
	 */
	public static Set<String> bucketless(MeterRegistry registry, boolean exact, MetricCatalog catalog,
			StabilityPolicy policy, List<Double> defaultBuckets, SettingNames settingNames) {
		Set<String> bucketless = new LinkedHashSet<>();
		if (exact) {
			return bucketless;
		}
		for (MetricDefinition definition : catalog.definitions()) {
			if (definition.type() != MetricType.HISTOGRAM || !policy
				.visibility(catalog.exposedName(definition.name()), definition.stability(),
						MetricCatalog.deprecatedVersion(definition))
				.isExposed()) {
				continue;
			}
			List<Double> buckets = definition.buckets().isEmpty() ? defaultBuckets : definition.buckets();
			double[] bounds = buckets.stream().mapToDouble(Double::doubleValue).toArray();
			String why = wrongBounds(bounds);
			if (why == null) {
				continue;
			}
			if (registry.getClass() == SimpleMeterRegistry.class && bounds[0] >= 0) {
				bucketless.add(definition.name());
				continue;
			}
			String reason = "on this registry (" + describe(registry) + ") " + definition.name()
					+ " is a Micrometer distribution summary, and Micrometer " + why;
			String action = "Declare boundaries that are whole numbers from 1 to 2^63, such as [1, 2, 5, 10], for "
					+ definition.name() + " (scale a ratio to a percentage; time durations as operations of "
					+ "ControllerOperations, whose buckets are exact on every registry), or record to a "
					+ "PrometheusMeterRegistry alone, where declared histograms are exact";
			if (definition.buckets().isEmpty()) {
				// The default buckets are what to change, or to replace for this metric.
				throw Setting.DURATION_BUCKETS.refuse(buckets, reason + " (" + definition.name()
						+ " has no buckets of its own and takes these, the default buckets)", action);
			}
			throw new InvalidMetricDefinitionException(definition.name(), "buckets", buckets, reason, action);
		}
		return bucketless;
	}

	/**
	 * What Micrometer would do wrong with a histogram's boundaries, if anything.
	 * @param bounds the boundaries, increasing, at least one
	 * @return why they would be wrong, completing "Micrometer ...", or {@code null}
	 */
	public static @Nullable String wrongBounds(double[] bounds) {
		if (bounds[0] < 0) {
			return "drops negative values, which this histogram's first boundary " + bounds[0] + " makes room for";
		}
		if (bounds[0] == 0) {
			return "takes only boundaries above 0, and this histogram's first boundary is 0";
		}
		Double inexact = BucketRules.roundedUpPast(bounds);
		if (inexact == null) {
			return null;
		}
		if (inexact >= 0x1p63) {
			return "holds each value as a whole number of at most 2^63 - 1, so a value above " + inexact
					+ " is counted under le=\"" + inexact + "\", not above it";
		}
		return "rounds each value up to a whole number before it picks its bucket, so a value just above "
				+ Math.floor(inexact) + " is counted under le=\"" + firstAtLeast(bounds, Math.ceil(inexact))
				+ "\", not le=\"" + inexact + "\"";
	}

	/**
	 * Whether a histogram counts negative values: its first boundary lies below 0.
	 * @param definition the histogram
	 * @return whether it does
	 */
	public static boolean countsNegativeValues(MetricDefinition definition) {
		return definition.type() == MetricType.HISTOGRAM && !definition.buckets().isEmpty()
				&& definition.buckets().get(0) < 0;
	}

	private static String firstAtLeast(double[] buckets, double value) {
		return Arrays.stream(buckets)
			.filter((bucket) -> bucket >= value)
			.mapToObj(Double::toString)
			.findFirst()
			.orElse("+Inf");
	}

	/**
	 * A registry's kind, as messages name it.
	 * @param registry the registry
	 * @return its simple class name, with those of its registries for a composite
	 */
	public static String describe(MeterRegistry registry) {
		String name = registry.getClass().getSimpleName();
		if (registry instanceof CompositeMeterRegistry composite) {
			return name + " of "
					+ composite.getRegistries()
						.stream()
						.map((child) -> child.getClass().getSimpleName())
						.sorted()
						.toList();
		}
		return name;
	}

}
