package dev.controllerobservability.internal.metrics;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Rules for the names this starter accepts and produces: Prometheus-valid, snake_case, no
 * colons (those are reserved for recording rules).
 */
public final class MetricNames {

	private static final Pattern SNAKE_CASE = Pattern.compile("[a-z_][a-z0-9_]*");

	private static final Pattern NON_ALPHANUMERIC = Pattern.compile("[^a-z0-9]+");

	private static final Pattern CAMEL_BOUNDARY = Pattern.compile("([a-z0-9])([A-Z])");

	private MetricNames() {
	}

	/**
	 * Whether {@code name} is a snake_case Prometheus name or label key: lower-case
	 * letters, digits and underscores, not starting with a digit, and not starting with
	 * the reserved {@code __}.
	 * @param name the candidate
	 * @return whether it may be used
	 */
	public static boolean isSnakeCase(String name) {
		return name != null && SNAKE_CASE.matcher(name).matches() && !name.startsWith("__");
	}

	/**
	 * Converts free text such as an application name ({@code "Demo-Controller"}) or an
	 * operation name ({@code "apply-packing"}) to snake_case ({@code "demo_controller"},
	 * {@code "apply_packing"}).
	 * @param text the text to convert
	 * @return the snake_case form, possibly empty
	 */
	public static String toSnakeCase(String text) {
		String split = CAMEL_BOUNDARY.matcher(text.trim()).replaceAll("$1_$2").toLowerCase(Locale.ROOT);
		String joined = NON_ALPHANUMERIC.matcher(split).replaceAll("_");
		int start = 0;
		int end = joined.length();
		while (start < end && joined.charAt(start) == '_') {
			start++;
		}
		while (end > start && joined.charAt(end - 1) == '_') {
			end--;
		}
		return joined.substring(start, end);
	}

}
