package dev.controllerobservability.cardinality;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Turns label values a metric may not carry into the literal {@code unexpected}, as
 * Kubernetes component-base does: a value outside the metric's allow-list for that label,
 * or a new value once the label already has {@code maxLabelValues} distinct ones. Values
 * longer than {@code maxLabelValueLength} are truncated first. Every such categorization
 * is counted in {@code <namespace>_cardinality_enforcement_unexpected_categorizations_total}.
 * <p>
 * So a metric has at most {@code maxLabelValues + 1} values per label, whatever its
 * callers pass. Example:
 * <pre>{@code
 * String zone = limiter.categorize("karpenter_nodes_launched_total", "zone", request.zone());
 * }</pre>
 */
public final class CardinalityLimiter {

	/** The value that replaces a label value the metric may not carry. */
	public static final String UNEXPECTED = "unexpected";

	private final Map<String, Map<String, Set<String>>> allowLists;

	private final int maxLabelValues;

	private final int maxLabelValueLength;

	private final Counter unexpected;

	private final Map<String, Map<String, Set<String>>> seen = new ConcurrentHashMap<>();

	/**
	 * Creates a limiter and registers its counter, pre-set to 0.
	 * @param registry registry for the counter
	 * @param namespace the controller's namespace
	 * @param allowLists allowed values by exposed metric name and label
	 * @param maxLabelValues most distinct values per metric and label
	 * @param maxLabelValueLength longest label value kept; longer ones are truncated
	 */
	public CardinalityLimiter(MeterRegistry registry, String namespace,
			Map<String, Map<String, Set<String>>> allowLists, int maxLabelValues, int maxLabelValueLength) {
		this.allowLists = Map.copyOf(allowLists);
		this.maxLabelValues = maxLabelValues;
		this.maxLabelValueLength = maxLabelValueLength;
		this.unexpected = Counter.builder(namespace + ".cardinality_enforcement_unexpected_categorizations")
			.description("Number of label values replaced by \"unexpected\" because they were outside an "
					+ "allow-list or beyond the per-label cap.")
			.register(registry);
	}

	/**
	 * The value to record for a label.
	 * @param metric the exposed metric name, such as {@code karpenter_nodes_launched_total}
	 * @param label the label key
	 * @param value the value the caller gave
	 * @return {@code value}, truncated if too long, or {@link #UNEXPECTED}
	 */
	public String categorize(String metric, String label, String value) {
		String kept = (value.length() > this.maxLabelValueLength) ? value.substring(0, this.maxLabelValueLength)
				: value;
		Map<String, Set<String>> allowed = this.allowLists.get(metric);
		if (allowed != null) {
			Set<String> values = allowed.get(label);
			if (values != null) {
				return values.contains(kept) ? kept : unexpected();
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
		return unexpected();
	}

	private String unexpected() {
		this.unexpected.increment();
		return UNEXPECTED;
	}

}
