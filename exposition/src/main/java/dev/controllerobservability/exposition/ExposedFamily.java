package dev.controllerobservability.exposition;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One metric family as the Prometheus text format shows it.
 *
 * @param name the family name from its {@code # TYPE} line, such as
 * {@code karpenter_nodes_launched_total}
 * @param type {@code counter}, {@code gauge}, {@code histogram}, {@code summary} or
 * {@code untyped}
 * @param help the {@code # HELP} text, or {@code null} when the family has no HELP line
 * @param series the label sets of its series, without {@code le} on histogram buckets and
 * {@code quantile} on summary quantiles, one per series as Prometheus counts them
 * @param buckets histogram bucket boundaries of its first series, without {@code +Inf}
 */
public record ExposedFamily(String name, String type, String help, List<Map<String, String>> series,
		List<Double> buckets) {

	public ExposedFamily {
		series = List.copyOf(series);
		buckets = List.copyOf(buckets);
	}

	/**
	 * Every label key any series carries, sorted.
	 * @return the label keys
	 */
	public Set<String> labelKeys() {
		Set<String> keys = new TreeSet<>();
		this.series.forEach((labels) -> keys.addAll(labels.keySet()));
		return keys;
	}

}
