package dev.controllerobservability.internal.metrics;

import java.util.List;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Meter;

/**
 * The family name the Prometheus registry exposes a meter under, so that settings written
 * with Prometheus names (such as {@code disabled-metrics}) apply to Micrometer meters:
 * {@code karpenter.nodes} (counter) is {@code karpenter_nodes_total},
 * {@code karpenter.bind.duration} (timer) is {@code karpenter_bind_duration_seconds}.
 * <p>
 * A meter filter sees a meter's id before the registry completes it: a {@code TimeGauge}
 * is a gauge without a base unit there, and the registry gives it the base time unit
 * ({@code _seconds}) only afterwards. {@link #familyNames} and {@link #registryNames}
 * therefore count a gauge without a unit under both names.
 */
public final class PrometheusNames {

	private PrometheusNames() {
	}

	/**
	 * The exposed family name of a meter.
	 * @param id the meter's id
	 * @return its Prometheus family name
	 */
	public static String familyName(Meter.Id id) {
		String name = id.getName().replace('.', '_');
		String unit = id.getBaseUnit();
		return switch (id.getType()) {
			case COUNTER -> withSuffix(withUnit(stripSuffix(name, "_total"), unit), "_total");
			case TIMER, LONG_TASK_TIMER -> withSuffix(name, "_seconds");
			default -> withUnit(name, unit);
		};
	}

	/**
	 * The exposed family names a meter may have, as far as its id tells before the
	 * registry completes it: its {@link #familyName}, and for a gauge without a base unit
	 * (perhaps a {@code TimeGauge}, perhaps a plain gauge) that name with
	 * {@code _seconds} too.
	 * @param id the meter's id, as a meter filter sees it
	 * @return one or two family names
	 */
	public static List<String> familyNames(Meter.Id id) {
		String family = familyName(id);
		if (id.getType() == Meter.Type.GAUGE && id.getBaseUnit() == null) {
			return List.of(family, withSuffix(family, "_seconds"));
		}
		return List.of(family);
	}

	/**
	 * The names a meter may take in the Prometheus registry: each of its
	 * {@link #familyNames}, for a counter also without {@code _total} (the registry knows
	 * a counter by its name without it), and the {@code _max} gauge of timers, long task
	 * timers and distribution summaries. A function timer is a timer to its id and has no
	 * {@code _max} gauge: counting one for it only refuses a name it does not take.
	 * @param id the meter's id, as a meter filter sees it
	 * @return the names
	 */
	public static List<String> registryNames(Meter.Id id) {
		List<String> families = familyNames(id);
		return switch (id.getType()) {
			case COUNTER ->
				families.stream().flatMap((family) -> Stream.of(family, stripSuffix(family, "_total"))).toList();
			case TIMER, LONG_TASK_TIMER, DISTRIBUTION_SUMMARY ->
				families.stream().flatMap((family) -> Stream.of(family, family + "_max")).toList();
			default -> families;
		};
	}

	private static String withUnit(String name, String unit) {
		return (unit != null && !unit.isEmpty()) ? withSuffix(name, "_" + unit) : name;
	}

	private static String withSuffix(String name, String suffix) {
		return name.endsWith(suffix) ? name : name + suffix;
	}

	private static String stripSuffix(String name, String suffix) {
		return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
	}

}
