package dev.controllerobservability.catalog;

import java.util.Locale;

/**
 * The Prometheus type of a declared metric.
 */
public enum MetricType {

	/** Monotonic count; its name ends with {@code _total}. */
	COUNTER,

	/**
	 * A value that goes up and down, set by the controller or computed at scrape time.
	 */
	GAUGE,

	/** Observations counted into buckets. */
	HISTOGRAM,

	/** Observations as count and sum only; prefer a histogram, which aggregates. */
	SUMMARY,

	/**
	 * Constant 1 with labels describing the controller; its name ends with {@code _info}.
	 */
	INFO;

	/**
	 * Parses a type as written in configuration: {@code counter}, {@code Gauge}, ...
	 * @param text the type name
	 * @return the type, or {@code null} if unknown
	 */
	public static MetricType parse(String text) {
		for (MetricType type : values()) {
			if (type.name().equalsIgnoreCase((text != null) ? text.trim() : "")) {
				return type;
			}
		}
		return null;
	}

	@Override
	public String toString() {
		return name().toLowerCase(Locale.ROOT);
	}

}
