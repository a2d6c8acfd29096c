package dev.controllerobservability.internal.catalog;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

/**
 * The series of one declared metric by the label keys and values callers pass, so that
 * looking a series up by name again costs a hash lookup instead of resolving its labels.
 * Only label sets that resolve to themselves are remembered: a value the cardinality
 * limits replace, truncate or fold into the overflow series is resolved, and counted, on
 * every call. At most {@code maxSize} label sets are remembered. The series of one-label
 * metrics live in a {@link LabelSetIndex} the metrics share, so that a caller can find
 * one by name, key and value in a single lookup.
 *
 * @param <T> the series type
 */
public final class SeriesCache<T> {

	/** The metric's name, interned as the literal names callers pass are. */
	private final String name;

	private final List<String> labels;

	/** The label key of a metric with exactly one label, else {@code null}. */
	private final @Nullable String onlyLabel;

	private final int maxSize;

	/** Series by label value, for the common metric with one label: shared by metrics. */
	private final LabelSetIndex<T> oneLabelSeries;

	/** How many series this metric added to {@link #oneLabelSeries}. */
	private final AtomicInteger oneLabelSize = new AtomicInteger();

	/** Series by label keys and values, for metrics with none or several labels. */
	private final ConcurrentMap<KeyValues, T> byKeyValues = new ConcurrentHashMap<>();

	/**
	 * Creates an empty cache.
	 * @param name the metric's declared name
	 * @param labels the metric's declared label keys
	 * @param maxSize most label sets remembered
	 * @param oneLabelSeries where the series of one-label metrics are remembered
	 */
	public SeriesCache(String name, List<String> labels, int maxSize, LabelSetIndex<T> oneLabelSeries) {
		this.name = name.intern();
		this.labels = List.copyOf(labels);
		// Interned, as the literal keys callers pass are, so that they match by identity.
		this.onlyLabel = (labels.size() == 1) ? labels.get(0).intern() : null;
		this.maxSize = maxSize;
		this.oneLabelSeries = oneLabelSeries;
	}

	/**
	 * The series remembered for label keys and values as a caller passes them.
	 * @param labelKeyValues keys, each followed by its value
	 * @return the series, or {@code null}
	 */
	public @Nullable T get(String[] labelKeyValues) {
		if (this.onlyLabel != null) {
			return (labelKeyValues.length == 2 && labelKeyValues[0] != null && labelKeyValues[1] != null)
					? this.oneLabelSeries.get(this.name, labelKeyValues[0], labelKeyValues[1]) : null;
		}
		return this.byKeyValues.get(new KeyValues(labelKeyValues));
	}

	/**
	 * Remembers a series, if its labels resolved to the values passed.
	 * @param labelKeyValues keys, each followed by its value, as the caller passed them
	 * @param resolved the labels after the cardinality limits
	 * @param series the series
	 */
	public void remember(String[] labelKeyValues, Tags resolved, T series) {
		if (labelKeyValues.length != 2 * this.labels.size() || !resolvesToItself(labelKeyValues, resolved)) {
			return;
		}
		if (this.onlyLabel != null) {
			// A place is taken before the series is added, so that racing callers
			// never exceed the bound.
			if (this.oneLabelSize.incrementAndGet() > this.maxSize
					|| !this.oneLabelSeries.put(this.name, this.onlyLabel, labelKeyValues[1], series)) {
				this.oneLabelSize.decrementAndGet();
			}
		}
		else if (this.byKeyValues.size() < this.maxSize) {
			this.byKeyValues.putIfAbsent(new KeyValues(labelKeyValues.clone()), series);
		}
	}

	private static boolean resolvesToItself(String[] labelKeyValues, Tags resolved) {
		for (int i = 0; i < labelKeyValues.length; i += 2) {
			String value = labelKeyValues[i + 1];
			if (value == null || !value.equals(valueOf(resolved, labelKeyValues[i]))) {
				return false;
			}
		}
		return true;
	}

	private static @Nullable String valueOf(Tags tags, @Nullable String key) {
		for (Tag tag : tags) {
			if (tag.getKey().equals(key)) {
				return tag.getValue();
			}
		}
		return null;
	}

}
