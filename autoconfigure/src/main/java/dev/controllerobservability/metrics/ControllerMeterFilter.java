package dev.controllerobservability.metrics;

import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

/**
 * The one {@link MeterFilter} that makes a meter a controller metric: it applies the
 * namespace, the common tags and the default duration buckets to meters in the
 * controller's namespace (and to meters whose names start with a configured prefix),
 * and leaves every other meter ({@code jvm.*}, {@code http.server.*}, ...) exactly as
 * it was registered.
 * <p>
 * Buckets are only a default: a meter registered with its own service level objectives
 * or a percentile histogram keeps them, and Spring Boot's
 * {@code management.metrics.distribution.*} properties, applied by a filter ordered
 * after this one, win over both. Example:
 * <pre>{@code
 * registry.config().meterFilter(new ControllerMeterFilter("karpenter", Tags.of("cluster", "dev"),
 *         MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS, List.of()));
 * registry.timer("karpenter.bind.duration"); // karpenter_bind_duration_seconds{cluster="dev",le=...}
 * }</pre>
 */
public final class ControllerMeterFilter implements MeterFilter {

	private static final double NANOS_PER_SECOND = 1_000_000_000d;

	private final String namespace;

	private final String namespacePrefix;

	private final String namespaceUnderscorePrefix;

	private final Tags commonTags;

	private final boolean hasCommonTags;

	private final List<String> meterPrefixes;

	private final double[] bucketsSeconds;

	private final double[] bucketsNanos;

	/**
	 * Creates a filter.
	 * @param namespace the controller's namespace, snake_case, such as {@code karpenter}
	 * @param commonTags tags added to controller metrics only; a meter's own tag wins
	 * @param durationBuckets default bucket boundaries in seconds, sorted ascending
	 * @param meterPrefixes dotted meter name prefixes (such as {@code "nodes"}) of meters
	 * registered without the namespace that belong to the controller
	 */
	public ControllerMeterFilter(String namespace, Tags commonTags, List<Double> durationBuckets,
			List<String> meterPrefixes) {
		this.namespace = namespace;
		this.namespacePrefix = namespace + ".";
		this.namespaceUnderscorePrefix = namespace + "_";
		this.commonTags = commonTags;
		this.hasCommonTags = commonTags.stream().findAny().isPresent();
		this.meterPrefixes = List.copyOf(meterPrefixes);
		this.bucketsSeconds = durationBuckets.stream().mapToDouble(Double::doubleValue).toArray();
		this.bucketsNanos = durationBuckets.stream().mapToDouble((seconds) -> Math.rint(seconds * NANOS_PER_SECOND)).toArray();
	}

	/**
	 * Whether a meter of this (already mapped) name is a controller metric.
	 * @param name a dotted Micrometer meter name
	 * @return whether it is in the controller's namespace
	 */
	public boolean isControllerMetric(String name) {
		return name.startsWith(this.namespacePrefix) || name.startsWith(this.namespaceUnderscorePrefix)
				|| name.equals(this.namespace);
	}

	@Override
	public Meter.Id map(Meter.Id id) {
		String name = id.getName();
		if (isControllerMetric(name)) {
			return withCommonTags(id);
		}
		if (hasMeterPrefix(name)) {
			return withCommonTags(id.withName(this.namespacePrefix + name));
		}
		return id;
	}

	@Override
	public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
		if (!isControllerMetric(id.getName()) || hasOwnBuckets(config)) {
			return config;
		}
		double[] defaults = defaultBuckets(id);
		if (defaults == null) {
			return config;
		}
		return config.merge(DistributionStatisticConfig.builder().serviceLevelObjectives(defaults).build());
	}

	private double[] defaultBuckets(Meter.Id id) {
		if (id.getType() == Meter.Type.TIMER) {
			return this.bucketsNanos;
		}
		// Duration buckets only fit summaries that measure seconds, not counts or bytes.
		if (id.getType() == Meter.Type.DISTRIBUTION_SUMMARY && "seconds".equals(id.getBaseUnit())) {
			return this.bucketsSeconds;
		}
		return null;
	}

	private static boolean hasOwnBuckets(DistributionStatisticConfig config) {
		double[] slos = config.getServiceLevelObjectiveBoundaries();
		return (slos != null && slos.length > 0) || Boolean.TRUE.equals(config.isPercentileHistogram());
	}

	private boolean hasMeterPrefix(String name) {
		for (String prefix : this.meterPrefixes) {
			if (name.equals(prefix) || name.startsWith(prefix + ".") || name.startsWith(prefix + "_")) {
				return true;
			}
		}
		return false;
	}

	private Meter.Id withCommonTags(Meter.Id id) {
		if (!this.hasCommonTags) {
			return id;
		}
		// Concatenation keeps the meter's own value when it already has a key.
		return id.replaceTags(Tags.concat(this.commonTags, id.getTagsAsIterable()));
	}

}
