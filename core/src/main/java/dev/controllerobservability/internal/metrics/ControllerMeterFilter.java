package dev.controllerobservability.internal.metrics;

import java.util.Objects;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import org.jspecify.annotations.Nullable;

/**
 * The one {@link MeterFilter} that makes a meter a controller metric: it applies the
 * namespace, the common tags and the default duration buckets to meters in the
 * controller's namespace (and to meters whose names start with a configured prefix), and
 * leaves every other meter ({@code jvm.*}, {@code http.server.*}, ...) exactly as it was
 * registered. Metrics listed as disabled (by their Prometheus names) are denied, whatever
 * their namespace, as Kubernetes component-base's {@code disabled-metrics} are, and so
 * are meters that would clash with a family the starter registers with the Prometheus
 * registry directly ({@link ClaimedFamilies}).
 * <p>
 * Buckets are only a default: a meter registered with its own service level objectives or
 * a percentile histogram keeps them, and Spring Boot's
 * {@code management.metrics.distribution.*} properties, applied by a filter ordered after
 * this one, win over both. Example:
 *
 * <pre>{@code
 * NamingPolicy naming = NamingPolicy.builder("karpenter").commonTags(Tags.of("cluster", "dev")).build();
 * registry.config().meterFilter(new ControllerMeterFilter(naming));
 * registry.timer("karpenter.bind.duration"); // karpenter_bind_duration_seconds{cluster="dev",le=...}
 * }</pre>
 */
public final class ControllerMeterFilter implements MeterFilter {

	private final NamingPolicy naming;

	private final boolean hasCommonTags;

	private final Set<String> deniedMetrics = ConcurrentHashMap.newKeySet();

	private final @Nullable ClaimedFamilies claimedFamilies;

	/**
	 * Creates the filter of a naming policy, with no families claimed outside Micrometer.
	 * @param naming what makes a meter a controller metric, its tags, buckets, and
	 * whether it is disabled
	 */
	public ControllerMeterFilter(NamingPolicy naming) {
		this(naming, null);
	}

	/**
	 * Creates the filter.
	 * @param naming what makes a meter a controller metric, its tags, buckets, and
	 * whether it is disabled
	 * @param claimedFamilies families registered outside Micrometer, whose names no meter
	 * may take, or {@code null} for none
	 */
	public ControllerMeterFilter(NamingPolicy naming, @Nullable ClaimedFamilies claimedFamilies) {
		this.naming = Objects.requireNonNull(naming, "naming");
		this.hasCommonTags = naming.commonTags().stream().findAny().isPresent();
		this.claimedFamilies = claimedFamilies;
	}

	/**
	 * Whether a meter of this (already mapped) name is a controller metric.
	 * @param name a dotted Micrometer meter name
	 * @return whether it is in the controller's namespace
	 */
	public boolean isControllerMetric(String name) {
		return this.naming.isControllerMeter(name);
	}

	/**
	 * The disabled metrics some meter has been registered under so far, so that a
	 * disabled name matching nothing can be reported.
	 * @return Prometheus names of the metrics denied so far
	 */
	public Set<String> deniedMetrics() {
		return Collections.unmodifiableSet(this.deniedMetrics);
	}

	@Override
	public Meter.Id map(Meter.Id id) {
		String name = id.getName();
		String controllerName = this.naming.controllerMeterName(name);
		if (controllerName == null) {
			return id;
		}
		return withCommonTags(controllerName.equals(name) ? id : id.withName(controllerName));
	}

	@Override
	public MeterFilterReply accept(Meter.Id id) {
		if (!this.naming.disabledMetrics().isEmpty()) {
			for (String name : PrometheusNames.familyNames(id)) {
				if (this.naming.isDisabled(name)) {
					this.deniedMetrics.add(name);
					return MeterFilterReply.DENY;
				}
			}
		}
		if (this.claimedFamilies != null) {
			String clash = this.claimedFamilies.clash(id);
			if (clash != null) {
				this.claimedFamilies.refused(id, clash);
				return MeterFilterReply.DENY;
			}
		}
		return MeterFilterReply.NEUTRAL;
	}

	@Override
	public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
		if (!isControllerMetric(id.getName()) || hasOwnBuckets(config)) {
			return config;
		}
		double[] defaults = this.naming.defaultBuckets(id);
		if (defaults == null) {
			return config;
		}
		return config.merge(DistributionStatisticConfig.builder().serviceLevelObjectives(defaults).build());
	}

	private static boolean hasOwnBuckets(DistributionStatisticConfig config) {
		double[] slos = config.getServiceLevelObjectiveBoundaries();
		// An empty list is a choice too: no buckets, a summary.
		return slos != null || Boolean.TRUE.equals(config.isPercentileHistogram());
	}

	private Meter.Id withCommonTags(Meter.Id id) {
		if (!this.hasCommonTags) {
			return id;
		}
		// Concatenation keeps the meter's own value when it already has a key.
		return id.replaceTags(Tags.concat(this.naming.commonTags(), id.getTagsAsIterable()));
	}

}
