package dev.controllerobservability.internal.metrics;

import io.micrometer.core.instrument.Meter;

/**
 * The family name the Prometheus registry exposes a meter under, so that settings written
 * with Prometheus names (such as {@code disabled-metrics}) apply to Micrometer meters:
 * {@code karpenter.nodes} (counter) is {@code karpenter_nodes_total},
 * {@code karpenter.bind.duration} (timer) is {@code karpenter_bind_duration_seconds}.
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
