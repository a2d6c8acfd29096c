package dev.controllerobservability.internal.cardinality;

import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.controllerobservability.internal.metrics.SelfCounters;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;

/**
 * Bounds the series a controller metric can have, whatever its callers pass.
 * <ul>
 * <li>Per label, as Kubernetes component-base does: a value outside the metric's
 * allow-list for that label, or a new value once the label already has
 * {@code maxLabelValues} distinct ones, becomes the literal {@code unexpected}. Values
 * longer than {@code maxLabelValueLength} are truncated first.</li>
 * <li>Per metric: once a metric has {@code maxSeriesPerMetric} distinct label sets, a new
 * label set is recorded into one overflow series whose every label is
 * {@code overflow}.</li>
 * </ul>
 * Both are counted, in
 * {@code <namespace>_cardinality_enforcement_unexpected_categorizations_total} and
 * {@code <namespace>_cardinality_enforcement_series_overflows_total}. So a metric has at
 * most {@code maxSeriesPerMetric + 1} label sets. Example:
 *
 * <pre>{@code
 * CardinalityLimiter limiter = CardinalityLimiter.builder(registry, "karpenter").maxSeriesPerMetric(1000).build();
 * Tags tags = limiter.limit("karpenter_nodes_launched_total", "provisioner", provisioner, "zone", zone);
 * }</pre>
 */
public final class CardinalityLimiter {

	/** The value that replaces a label value the metric may not carry. */
	public static final String UNEXPECTED = "unexpected";

	/** The value of every label of a metric's overflow series. */
	public static final String OVERFLOW = "overflow";

	/** Default of {@link Builder#maxLabelValues(int)}. */
	public static final int DEFAULT_MAX_LABEL_VALUES = 200;

	/** Default of {@link Builder#maxLabelValueLength(int)}. */
	public static final int DEFAULT_MAX_LABEL_VALUE_LENGTH = 128;

	/** Default of {@link Builder#maxSeriesPerMetric(int)}. */
	public static final int DEFAULT_MAX_SERIES_PER_METRIC = 1000;

	private static final Logger logger = LoggerFactory.getLogger(CardinalityLimiter.class);

	private final Map<String, Map<String, Set<String>>> allowLists;

	private final int maxLabelValues;

	private final int maxLabelValueLength;

	private final int maxSeriesPerMetric;

	private final String maxSeriesSetting;

	private final Counter unexpected;

	private final Counter overflows;

	private final Map<String, Map<String, Set<String>>> seen = new ConcurrentHashMap<>();

	private final Map<String, Set<List<String>>> series = new ConcurrentHashMap<>();

	private final Set<String> overflowed = ConcurrentHashMap.newKeySet();

	private CardinalityLimiter(Builder builder) {
		this.allowLists = Map.copyOf(builder.allowLists);
		this.maxLabelValues = builder.maxLabelValues;
		this.maxLabelValueLength = builder.maxLabelValueLength;
		this.maxSeriesPerMetric = builder.maxSeriesPerMetric;
		this.maxSeriesSetting = builder.settingNames.of(Setting.MAX_SERIES_PER_METRIC);
		this.unexpected = SelfCounters.register(builder.registry,
				builder.namespace + ".cardinality_enforcement_unexpected_categorizations",
				"Number of label values replaced by \"unexpected\" because they were outside an "
						+ "allow-list or beyond the per-label cap.");
		this.overflows = SelfCounters.register(builder.registry,
				builder.namespace + ".cardinality_enforcement_series_overflows",
				"Number of label sets recorded into a metric's overflow series because the metric already "
						+ "had the most series allowed.");
	}

	/**
	 * Starts a builder.
	 * @param registry registry for the limiter's counters, which are pre-set to 0
	 * @param namespace the controller's namespace
	 * @return a builder without allow-lists and with the default caps
	 */
	public static Builder builder(MeterRegistry registry, String namespace) {
		return new Builder(registry, namespace);
	}

	/**
	 * Longest label value kept; longer values are truncated.
	 * @return the length
	 */
	public int maxLabelValueLength() {
		return this.maxLabelValueLength;
	}

	/**
	 * Most label sets a metric has before new ones go to its overflow series.
	 * @return the cap
	 */
	public int maxSeriesPerMetric() {
		return this.maxSeriesPerMetric;
	}

	/**
	 * The value to record for a label, after the per-label limits only.
	 * @param metric the exposed metric name, such as
	 * {@code karpenter_nodes_launched_total}
	 * @param label the label key
	 * @param value the value the caller gave
	 * @return {@code value}, truncated if too long, or {@link #UNEXPECTED}
	 */
	public String categorize(String metric, String label, String value) {
		String kept = categorizeUncounted(metric, label, value);
		if (kept == UNEXPECTED) {
			countUnexpected(1);
		}
		return kept;
	}

	/**
	 * The value to record for a label, after the per-label limits only, without counting
	 * a replacement: for a caller that counts each recording instead
	 * ({@link #countUnexpected(int)}).
	 * @param metric the exposed metric name
	 * @param label the label key
	 * @param value the value the caller gave
	 * @return {@code value}, truncated if too long, or {@link #UNEXPECTED} (this very
	 * instance)
	 */
	public String categorizeUncounted(String metric, String label, String value) {
		String kept = truncate(value);
		Map<String, Set<String>> allowed = this.allowLists.get(metric);
		if (allowed != null) {
			Set<String> values = allowed.get(label);
			if (values != null) {
				return values.contains(kept) ? kept : UNEXPECTED;
			}
		}
		Set<String> known = this.seen.computeIfAbsent(metric, (name) -> new ConcurrentHashMap<>())
			.computeIfAbsent(label, (key) -> ConcurrentHashMap.newKeySet());
		if (known.contains(kept)) {
			return kept;
		}
		synchronized (known) {
			if (known.contains(kept) || known.size() < this.maxLabelValues) {
				known.add(kept);
				return kept;
			}
		}
		return UNEXPECTED;
	}

	/**
	 * The labels to record a series with, after the per-label limits and the per-metric
	 * series cap.
	 * @param metric the exposed metric name, such as
	 * {@code karpenter_nodes_launched_total}
	 * @param keyValues label keys, each followed by the value the caller gave; the values
	 * are replaced in place by the ones to record
	 * @return the labels to record
	 */
	public Tags limit(String metric, String... keyValues) {
		return limit(metric, keyValues, 0);
	}

	/**
	 * The labels to record a series of a per-object metric with: the labels that name the
	 * object, which come first, are only truncated, since their values come and go with
	 * the objects and are bounded by the series cap, whose places
	 * {@link #release(String, List)} frees.
	 * @param metric the exposed metric name
	 * @param keyValues label keys, each followed by the value the caller gave; the values
	 * are replaced in place by the ones to record
	 * @param identityLabels how many labels, first among them, name the object
	 * @return the labels to record
	 */
	public Tags limit(String metric, String[] keyValues, int identityLabels) {
		for (int i = 1; i < keyValues.length; i += 2) {
			keyValues[i] = (i < 2 * identityLabels) ? truncate(keyValues[i])
					: categorize(metric, keyValues[i - 1], keyValues[i]);
		}
		if (keyValues.length == 0) {
			return Tags.empty();
		}
		if (!admitOrOverflow(metric, keyValues)) {
			countOverflow(metric);
		}
		return Tags.of(keyValues);
	}

	/**
	 * Keeps label values whose set fits under a metric's series cap, else replaces each
	 * of them by {@link #OVERFLOW}; counts nothing, for a caller that counts each
	 * recording into the overflow series ({@link #countOverflow(String)}).
	 * @param metric the exposed metric name
	 * @param keyValues label keys, each followed by its value; the values are replaced in
	 * place when the set does not fit
	 * @return whether the set fits
	 */
	public boolean admitOrOverflow(String metric, String[] keyValues) {
		if (keyValues.length == 0 || admitUncounted(metric, new LabelValues(keyValues))) {
			return true;
		}
		for (int i = 1; i < keyValues.length; i += 2) {
			keyValues[i] = OVERFLOW;
		}
		return false;
	}

	/**
	 * Whether a metric may get a series with these label values; counts and, once per
	 * metric, logs a refusal.
	 * @param metric the exposed metric name
	 * @param values the label values, in label key order
	 * @return whether the series is known or fits under the cap
	 */
	public boolean admit(String metric, List<String> values) {
		if (admitUncounted(metric, values)) {
			return true;
		}
		countOverflow(metric);
		return false;
	}

	/**
	 * Whether a metric may get a series with these label values, without counting a
	 * refusal: for a caller that counts each recording into the overflow series instead
	 * ({@link #countOverflow(String)}).
	 * @param metric the exposed metric name
	 * @param values the label values, in label key order
	 * @return whether the series is known or fits under the cap
	 */
	public boolean admitUncounted(String metric, List<String> values) {
		Set<List<String>> known = this.series.computeIfAbsent(metric, (name) -> ConcurrentHashMap.newKeySet());
		if (known.contains(values)) {
			return true;
		}
		synchronized (known) {
			if (known.contains(values) || known.size() < this.maxSeriesPerMetric) {
				known.add(List.copyOf(values));
				return true;
			}
		}
		return false;
	}

	/**
	 * Frees the place of a series that was removed under a metric's series cap.
	 * @param metric the exposed metric name
	 * @param values the series' label values, in label key order
	 * @return whether the series held a place
	 */
	public boolean release(String metric, List<String> values) {
		Set<List<String>> known = this.series.get(metric);
		if (known == null) {
			return false;
		}
		synchronized (known) {
			return known.remove(values);
		}
	}

	/**
	 * Counts label values recorded as {@link #UNEXPECTED}. Allocates nothing.
	 * @param count how many
	 */
	public void countUnexpected(int count) {
		for (int i = 0; i < count; i++) {
			SelfCounters.increment(this.unexpected);
		}
	}

	/**
	 * Counts label sets that a caller folded into a metric's overflow series itself, such
	 * as the series a scrape-time collector reported beyond the cap.
	 * @param metric the exposed metric name
	 * @param count how many label sets
	 */
	public void overflowed(String metric, int count) {
		for (int i = 0; i < count; i++) {
			countOverflow(metric);
		}
	}

	/**
	 * Counts one recording into a metric's overflow series and, once per metric, logs
	 * that the metric reached the cap. Allocates nothing once the metric was logged.
	 * @param metric the exposed metric name
	 */
	public void countOverflow(String metric) {
		SelfCounters.increment(this.overflows);
		if (this.overflowed.add(metric)) {
			logger.warn("Metric {} reached {} series: new label sets are recorded into its overflow series, whose "
					+ "labels are all \"{}\". Raise {} if that many series are expected, or record fewer distinct "
					+ "label values.", metric, this.maxSeriesPerMetric, OVERFLOW, this.maxSeriesSetting);
		}
	}

	private String truncate(String value) {
		return (value.length() > this.maxLabelValueLength) ? value.substring(0, this.maxLabelValueLength) : value;
	}

	/** The values of a key, value array, as a list, without copying them. */
	private static final class LabelValues extends AbstractList<String> {

		private final String[] keyValues;

		LabelValues(String[] keyValues) {
			this.keyValues = keyValues;
		}

		@Override
		public String get(int index) {
			return this.keyValues[2 * index + 1];
		}

		@Override
		public int size() {
			return this.keyValues.length / 2;
		}

	}

	/** Builds a {@link CardinalityLimiter}. */
	public static final class Builder {

		private final MeterRegistry registry;

		private final String namespace;

		private Map<String, Map<String, Set<String>>> allowLists = Map.of();

		private int maxLabelValues = DEFAULT_MAX_LABEL_VALUES;

		private int maxLabelValueLength = DEFAULT_MAX_LABEL_VALUE_LENGTH;

		private int maxSeriesPerMetric = DEFAULT_MAX_SERIES_PER_METRIC;

		private SettingNames settingNames = SettingNames.BUILDER;

		private Builder(MeterRegistry registry, String namespace) {
			this.registry = Objects.requireNonNull(registry, "registry");
			this.namespace = Objects.requireNonNull(namespace, "namespace");
		}

		/**
		 * Sets the allowed values by exposed metric name and label.
		 * @param allowLists such as {@code {karpenter_nodes_total: {zone: [a, b]}}}
		 * @return this builder
		 */
		public Builder allowLists(Map<String, Map<String, Set<String>>> allowLists) {
			this.allowLists = Map.copyOf(allowLists);
			return this;
		}

		/**
		 * Sets the most distinct values per metric and label.
		 * @param maxLabelValues at least 1
		 * @return this builder
		 */
		public Builder maxLabelValues(int maxLabelValues) {
			this.maxLabelValues = atLeastOne("maxLabelValues", maxLabelValues);
			return this;
		}

		/**
		 * Sets the longest label value kept.
		 * @param maxLabelValueLength at least 1
		 * @return this builder
		 */
		public Builder maxLabelValueLength(int maxLabelValueLength) {
			this.maxLabelValueLength = atLeastOne("maxLabelValueLength", maxLabelValueLength);
			return this;
		}

		/**
		 * Sets the most label sets per metric before its overflow series.
		 * @param maxSeriesPerMetric at least 1
		 * @return this builder
		 */
		public Builder maxSeriesPerMetric(int maxSeriesPerMetric) {
			this.maxSeriesPerMetric = atLeastOne("maxSeriesPerMetric", maxSeriesPerMetric);
			return this;
		}

		/**
		 * Sets how messages name a setting the user can change: the builder method in
		 * plain Java, the property on the Spring Boot path.
		 * @param settingNames how to name settings
		 * @return this builder
		 */
		public Builder settingNames(SettingNames settingNames) {
			this.settingNames = Objects.requireNonNull(settingNames, "settingNames");
			return this;
		}

		/**
		 * Builds the limiter and registers its counters. A registry that refuses them
		 * leaves the limits working uncounted.
		 * @return the limiter
		 */
		public CardinalityLimiter build() {
			return new CardinalityLimiter(this);
		}

		private static int atLeastOne(String name, int value) {
			if (value < 1) {
				throw new IllegalArgumentException(name + " must be at least 1, got " + value);
			}
			return value;
		}

	}

}
