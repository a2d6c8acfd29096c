package dev.controllerobservability.internal.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

/**
 * The one answer, for any metric the starter shapes, to: is it a controller metric and
 * under which name, which constant labels it carries, whether it is disabled, and which
 * buckets it gets. Every recording stack asks it: the Micrometer
 * {@link ControllerMeterFilter}, the operation histograms of the prometheus backend, the
 * controller-runtime histograms and the catalog. Example:
 *
 * <pre>{@code
 * NamingPolicy naming = NamingPolicy.builder("karpenter").commonTags(Tags.of("cluster", "dev")).build();
 * naming.meterName("bind.duration"); // karpenter.bind.duration, exposed as karpenter_bind_duration_seconds
 * naming.controllerLabels(); // {cluster=dev}
 * }</pre>
 */
public final class NamingPolicy {

	private static final double NANOS_PER_SECOND = 1_000_000_000d;

	private final String namespace;

	private final String namespacePrefix;

	private final String namespaceUnderscorePrefix;

	private final Tags commonTags;

	private final Map<String, String> registryTags;

	private final List<String> meterPrefixes;

	private final Set<String> disabledMetrics;

	private final List<Double> durationBuckets;

	private final double @Nullable [] bucketsSeconds;

	private final double[] bucketsNanos;

	private NamingPolicy(Builder builder) {
		this.namespace = builder.namespace;
		this.namespacePrefix = this.namespace + ".";
		this.namespaceUnderscorePrefix = this.namespace + "_";
		this.commonTags = builder.commonTags;
		this.registryTags = Map.copyOf(builder.registryTags);
		this.meterPrefixes = List.copyOf(builder.meterPrefixes);
		this.disabledMetrics = Set.copyOf(builder.disabledMetrics);
		this.durationBuckets = List.copyOf(builder.durationBuckets);
		double[] bounds = this.durationBuckets.stream().mapToDouble(Double::doubleValue).toArray();
		this.bucketsSeconds = (BucketRules.roundedUpPast(bounds) == null) ? bounds : null;
		this.bucketsNanos = this.durationBuckets.stream()
			.mapToDouble((seconds) -> Math.rint(seconds * NANOS_PER_SECOND))
			.toArray();
	}

	/**
	 * Starts a builder.
	 * @param namespace the controller's checked namespace, such as {@code karpenter}
	 * @return a builder without tags, meter prefixes or disabled metrics, and with
	 * controller-runtime's duration buckets
	 */
	public static Builder builder(String namespace) {
		return new Builder(namespace);
	}

	/**
	 * The controller's namespace.
	 * @return the namespace
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * The dotted Micrometer name of a controller metric.
	 * @param stem the name after the namespace, dotted or snake_case, such as
	 * {@code allocation_controller.bind.duration}
	 * @return the name with the namespace, such as
	 * {@code karpenter.allocation_controller.bind.duration}
	 */
	public String meterName(String stem) {
		return this.namespacePrefix + stem;
	}

	/**
	 * The Prometheus name of a controller metric.
	 * @param stem the snake_case name after the namespace, such as
	 * {@code nodes_created_total}
	 * @return the exposed name, such as {@code karpenter_nodes_created_total}
	 */
	public String exposedName(String stem) {
		return this.namespaceUnderscorePrefix + stem;
	}

	/**
	 * Whether a meter of this (already mapped) name is a controller metric.
	 * @param meterName a dotted Micrometer meter name
	 * @return whether it is in the controller's namespace
	 */
	public boolean isControllerMeter(String meterName) {
		return meterName.startsWith(this.namespacePrefix) || meterName.startsWith(this.namespaceUnderscorePrefix)
				|| meterName.equals(this.namespace);
	}

	/**
	 * The name a meter is a controller metric under: its own in the namespace, the
	 * namespace added for a meter under one of the meter prefixes.
	 * @param meterName a dotted Micrometer meter name
	 * @return the controller metric's name, or {@code null} for a meter that is not one
	 * (framework meters)
	 */
	public @Nullable String controllerMeterName(String meterName) {
		if (isControllerMeter(meterName)) {
			return meterName;
		}
		for (String prefix : this.meterPrefixes) {
			if (meterName.equals(prefix) || meterName.startsWith(prefix + ".") || meterName.startsWith(prefix + "_")) {
				return meterName(meterName);
			}
		}
		return null;
	}

	/**
	 * The tags every controller meter gets through the meter filter.
	 * @return the common tags
	 */
	public Tags commonTags() {
		return this.commonTags;
	}

	/**
	 * The constant labels of a controller family recorded outside Micrometer: the tags
	 * the application's registry gives every meter through its own filters, then the
	 * common tags, which win on the same key.
	 * @return the labels by name
	 */
	public Map<String, String> controllerLabels() {
		Map<String, String> labels = new LinkedHashMap<>(this.registryTags);
		for (Tag tag : this.commonTags) {
			labels.put(tag.getKey(), tag.getValue());
		}
		return labels;
	}

	/**
	 * The constant labels of a standard family recorded outside Micrometer
	 * ({@code controller_runtime_*}, {@code process_*}): only the tags the registry gives
	 * every meter, since common tags are for controller metrics only.
	 * @return the labels by name
	 */
	public Map<String, String> standardLabels() {
		return this.registryTags;
	}

	/**
	 * Whether a metric is never registered.
	 * @param exposedName the metric's Prometheus name
	 * @return whether it is listed as disabled
	 */
	public boolean isDisabled(String exposedName) {
		return this.disabledMetrics.contains(exposedName);
	}

	/**
	 * The Prometheus names of the metrics never registered.
	 * @return the disabled names
	 */
	public Set<String> disabledMetrics() {
		return this.disabledMetrics;
	}

	/**
	 * The default duration buckets.
	 * @return boundaries in seconds
	 */
	public List<Double> durationBuckets() {
		return this.durationBuckets;
	}

	/**
	 * The buckets of a metric with buckets of its own or none.
	 * @param own the metric's boundaries in seconds, empty for none
	 * @return {@code own}, or the default duration buckets
	 */
	public List<Double> durationBuckets(List<Double> own) {
		return own.isEmpty() ? this.durationBuckets : own;
	}

	/**
	 * The default buckets a Micrometer meter without buckets of its own gets, in its base
	 * unit: timers count nanoseconds; summaries in seconds count seconds when every
	 * duration bucket is a whole number, and get none otherwise, since Micrometer rounds
	 * a summary's values up to a whole number before it picks their bucket
	 * ({@link BucketRules#roundedUpPast}); other summaries (counts, bytes) get none.
	 * @param id the meter
	 * @return the boundaries, or {@code null} for none
	 */
	public double @Nullable [] defaultBuckets(Meter.Id id) {
		if (id.getType() == Meter.Type.TIMER) {
			return this.bucketsNanos;
		}
		if (id.getType() == Meter.Type.DISTRIBUTION_SUMMARY && "seconds".equals(id.getBaseUnit())) {
			return this.bucketsSeconds;
		}
		return null;
	}

	/** Builds a {@link NamingPolicy}. */
	public static final class Builder {

		private final String namespace;

		private Tags commonTags = Tags.empty();

		private Map<String, String> registryTags = Map.of();

		private List<Double> durationBuckets = MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS;

		private final List<String> meterPrefixes = new ArrayList<>();

		private final List<String> disabledMetrics = new ArrayList<>();

		private Builder(String namespace) {
			this.namespace = Objects.requireNonNull(namespace, "namespace");
		}

		/**
		 * Sets the tags added to controller metrics only; a meter's own tag wins.
		 * @param commonTags the tags
		 * @return this builder
		 */
		public Builder commonTags(Tags commonTags) {
			this.commonTags = Objects.requireNonNull(commonTags, "commonTags");
			return this;
		}

		/**
		 * Sets the tags the application's registry gives every meter through filters of
		 * its own (Spring Boot's {@code management.metrics.tags}), which families
		 * recorded outside Micrometer carry as constant labels.
		 * @param registryTags the tags by key
		 * @return this builder
		 */
		public Builder registryTags(Map<String, String> registryTags) {
			this.registryTags = new LinkedHashMap<>(registryTags);
			return this;
		}

		/**
		 * Sets the default bucket boundaries of duration meters.
		 * @param durationBuckets boundaries in seconds, sorted ascending
		 * @return this builder
		 */
		public Builder durationBuckets(List<Double> durationBuckets) {
			this.durationBuckets = List.copyOf(durationBuckets);
			return this;
		}

		/**
		 * Adds dotted name prefixes (such as {@code "nodes"}) of meters registered
		 * without the namespace that belong to the controller.
		 * @param meterPrefixes the prefixes
		 * @return this builder
		 */
		public Builder meterPrefixes(List<String> meterPrefixes) {
			this.meterPrefixes.addAll(meterPrefixes);
			return this;
		}

		/**
		 * Adds Prometheus names of metrics never to register, such as
		 * {@code karpenter_old_total}.
		 * @param disabledMetrics the exposed names
		 * @return this builder
		 */
		public Builder disabledMetrics(Iterable<String> disabledMetrics) {
			disabledMetrics.forEach(this.disabledMetrics::add);
			return this;
		}

		/**
		 * Builds the policy.
		 * @return the policy
		 */
		public NamingPolicy build() {
			return new NamingPolicy(this);
		}

	}

}
