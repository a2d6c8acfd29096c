package dev.controllerobservability.catalog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.stability.StabilityLevel;

/**
 * One declared metric. The name is the Prometheus name without the namespace, so
 * {@code nodes_launched_total} in namespace {@code karpenter} is exposed as
 * {@code karpenter_nodes_launched_total}. Declare one in Java with the builder:
 *
 * <pre class="code">
 * &#64;Bean
 * MetricDefinition nodesLaunched() {
 *     return MetricDefinition.counter("nodes_launched_total")
 *         .help("Number of nodes launched by a provisioner.")
 *         .labels("provisioner", "zone")
 *         .stability(StabilityLevel.STABLE)
 *         .build();
 * }
 * </pre>
 *
 * @param name Prometheus name without namespace, snake_case
 * @param type the metric type
 * @param help help text, without the stability annotation
 * @param labels label keys every series carries
 * @param buckets histogram bucket boundaries, empty for the shared duration buckets
 * @param unit base unit the name ends with ({@code seconds}, {@code bytes}, ...), or
 * {@code null}
 * @param stability the stability level
 * @param deprecatedVersion version that deprecated the metric ({@code 1.4.0}), or
 * {@code null}
 * @param replaces old name this metric replaces, also emitted while the rename is recent,
 * or {@code null}
 * @param renamedIn version in which the old name was replaced, required with
 * {@code replaces}
 * @param labelValues known values of labels; series of known values are present at 0 from
 * start-up when every label's values are known
 * @param perObject how the series follow the objects they are about, whose identity
 * labels then come first among {@code labels}; {@code null} for a metric that is not per
 * object
 */
public record MetricDefinition(String name, MetricType type, String help, List<String> labels, List<Double> buckets,
		String unit, StabilityLevel stability, String deprecatedVersion, String replaces, String renamedIn,
		Map<String, List<String>> labelValues, @Nullable PerObject perObject) {

	public MetricDefinition {
		labels = (labels != null) ? List.copyOf(labels) : List.of();
		if (perObject != null && !startsWith(labels, perObject.labels())) {
			List<String> withIdentity = new ArrayList<>(perObject.labels());
			withIdentity.addAll(labels);
			labels = List.copyOf(withIdentity);
		}
		buckets = (buckets != null) ? List.copyOf(buckets) : List.of();
		stability = (stability != null) ? stability : StabilityLevel.ALPHA;
		labelValues = (labelValues != null) ? Map.copyOf(labelValues) : Map.of();
	}

	private static boolean startsWith(List<String> labels, List<String> prefix) {
		return labels.size() >= prefix.size() && labels.subList(0, prefix.size()).equals(prefix);
	}

	/**
	 * A definition that is not per object, as before per-object metrics existed.
	 * @param name Prometheus name without namespace
	 * @param type the metric type
	 * @param help help text
	 * @param labels label keys
	 * @param buckets histogram bucket boundaries
	 * @param unit base unit, or {@code null}
	 * @param stability the stability level
	 * @param deprecatedVersion version that deprecated the metric, or {@code null}
	 * @param replaces old name, or {@code null}
	 * @param renamedIn version of the rename, or {@code null}
	 * @param labelValues known values of labels
	 */
	public MetricDefinition(String name, MetricType type, String help, List<String> labels, List<Double> buckets,
			String unit, StabilityLevel stability, String deprecatedVersion, String replaces, String renamedIn,
			Map<String, List<String>> labelValues) {
		this(name, type, help, labels, buckets, unit, stability, deprecatedVersion, replaces, renamedIn, labelValues,
				null);
	}

	/**
	 * Starts a counter definition.
	 * @param name name ending with {@code _total}
	 * @return a builder
	 */
	public static Builder counter(String name) {
		return builder(name, MetricType.COUNTER);
	}

	/**
	 * Starts a gauge definition.
	 * @param name the name
	 * @return a builder
	 */
	public static Builder gauge(String name) {
		return builder(name, MetricType.GAUGE);
	}

	/**
	 * Starts a histogram definition.
	 * @param name the name, usually ending with its unit
	 * @return a builder
	 */
	public static Builder histogram(String name) {
		return builder(name, MetricType.HISTOGRAM);
	}

	/**
	 * Starts a definition of any type.
	 * @param name the name
	 * @param type the type
	 * @return a builder
	 */
	public static Builder builder(String name, MetricType type) {
		return new Builder(name, type);
	}

	/** Builds a {@link MetricDefinition}; validated when the catalog is built. */
	public static final class Builder {

		private final String name;

		private final MetricType type;

		private String help;

		private final List<String> labels = new ArrayList<>();

		private final List<Double> buckets = new ArrayList<>();

		private String unit;

		private StabilityLevel stability = StabilityLevel.ALPHA;

		private String deprecatedVersion;

		private String replaces;

		private String renamedIn;

		private final Map<String, List<String>> labelValues = new LinkedHashMap<>();

		private boolean perObject;

		private boolean objectKind;

		private @Nullable Duration timeToLive;

		private Builder(String name, MetricType type) {
			this.name = Objects.requireNonNull(name, "name");
			this.type = Objects.requireNonNull(type, "type");
		}

		public Builder help(String help) {
			this.help = help;
			return this;
		}

		public Builder labels(String... labels) {
			this.labels.addAll(List.of(labels));
			return this;
		}

		/**
		 * The histogram's bucket boundaries, increasing.
		 * @param buckets the boundaries, such as {@code 0.25, 0.5, 1}
		 * @return this builder
		 * @throws IllegalArgumentException if the array is {@code null}
		 */
		public Builder buckets(double... buckets) {
			if (buckets == null) {
				throw new IllegalArgumentException("Buckets of metric '" + this.name
						+ "' are a null array; give the boundaries, such as buckets(0.25, 0.5, 1), or leave the call "
						+ "out for the default buckets");
			}
			for (double bucket : buckets) {
				this.buckets.add(bucket);
			}
			return this;
		}

		public Builder unit(String unit) {
			this.unit = unit;
			return this;
		}

		public Builder stability(StabilityLevel stability) {
			this.stability = stability;
			return this;
		}

		public Builder deprecatedVersion(String deprecatedVersion) {
			this.deprecatedVersion = deprecatedVersion;
			return this;
		}

		/**
		 * Declares that this metric replaces an old name, which stays exposed as a
		 * deprecated alias for the stability level's deprecation window.
		 * @param oldName the old name without namespace
		 * @param renamedIn the version that introduced the new name
		 * @return this builder
		 */
		public Builder replaces(String oldName, String renamedIn) {
			this.replaces = oldName;
			this.renamedIn = renamedIn;
			return this;
		}

		public Builder labelValues(String label, String... values) {
			this.labelValues.put(label, List.of(values));
			return this;
		}

		/**
		 * Declares the metric per object: its series carry the object's {@code namespace}
		 * and {@code name} labels, and {@link ControllerMetrics#forget(ObjectRef)}
		 * removes them when the object is gone.
		 * @return this builder
		 */
		public Builder perObject() {
			this.perObject = true;
			return this;
		}

		/**
		 * Declares the metric per object, with the object's {@code kind} label beside its
		 * {@code namespace} and {@code name}: for a metric about objects of several
		 * kinds.
		 * @return this builder
		 */
		public Builder perObjectWithKind() {
			this.perObject = true;
			this.objectKind = true;
			return this;
		}

		/**
		 * Removes a series of this per-object metric once it has not been written for the
		 * given time, whether or not its object is forgotten.
		 * @param timeToLive at least one second
		 * @return this builder
		 * @throws InvalidMetricDefinitionException from {@link #build()} if the metric is
		 * not declared per object
		 */
		public Builder timeToLive(Duration timeToLive) {
			this.timeToLive = timeToLive;
			return this;
		}

		public MetricDefinition build() {
			return new MetricDefinition(this.name, this.type, this.help, this.labels, this.buckets, this.unit,
					this.stability, this.deprecatedVersion, this.replaces, this.renamedIn, this.labelValues,
					PerObject.of(this.name, this.perObject, this.objectKind, this.timeToLive));
		}

	}

}
