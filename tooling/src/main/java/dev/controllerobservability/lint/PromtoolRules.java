package dev.controllerobservability.lint;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

import dev.controllerobservability.exposition.ExposedFamily;

/**
 * The rules of {@code promtool check metrics} (client_golang's promlint), with its exact
 * problem texts, so that this linter and promtool agree on the same scrape.
 */
final class PromtoolRules {

	private static final Pattern CAMEL_CASE = Pattern.compile("[a-z][A-Z]");

	private static final List<String> TYPES_IN_NAME = List.of("counter", "gauge", "summary", "histogram");

	private static final List<String> ABBREVIATIONS = List.of("s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb",
			"pb", "m", "h", "d");

	private static final List<String> UNIT_PREFIXES = List.of("pico", "nano", "micro", "milli", "centi", "deci", "deca",
			"hecto", "kilo", "kibi", "mega", "mibi", "giga", "gibi", "tera", "tebi", "peta", "pebi", "");

	private static final Map<String, String> UNITS = units();

	private PromtoolRules() {
	}

	static void check(ExposedFamily family, BiConsumer<ExposedFamily, String> problem) {
		String name = family.name();
		String type = family.type();
		if (!hasHelp(family.help())) {
			problem.accept(family, "no help text");
		}
		String[] unit = metricUnit(name);
		if (unit != null && !unit[0].equals(unit[1])) {
			problem.accept(family, "use base unit \"" + unit[1] + "\" instead of \"" + unit[0] + "\"");
		}
		boolean counter = type.equals("counter");
		boolean untyped = type.equals("untyped");
		boolean histogram = type.equals("histogram");
		boolean summary = type.equals("summary");
		if (counter && !name.endsWith("_total")) {
			problem.accept(family, "counter metrics should have \"_total\" suffix");
		}
		else if (!untyped && !counter && name.endsWith("_total")) {
			problem.accept(family, "non-counter metrics should not have \"_total\" suffix");
		}
		if (!untyped) {
			if (!histogram && name.endsWith("_bucket")) {
				problem.accept(family, "non-histogram metrics should not have \"_bucket\" suffix");
			}
			if (!histogram && !summary && name.endsWith("_count")) {
				problem.accept(family, "non-histogram and non-summary metrics should not have \"_count\" suffix");
			}
			if (!histogram && !summary && name.endsWith("_sum")) {
				problem.accept(family, "non-histogram and non-summary metrics should not have \"_sum\" suffix");
			}
			// promtool reports label problems once per series and label.
			for (Map<String, String> labels : family.series()) {
				for (String label : labels.keySet()) {
					if (!histogram && label.equals("le")) {
						problem.accept(family, "non-histogram metrics should not have \"le\" label");
					}
					if (!summary && label.equals("quantile")) {
						problem.accept(family, "non-summary metrics should not have \"quantile\" label");
					}
				}
			}
		}
		String lower = name.toLowerCase(Locale.ROOT);
		for (String typeName : TYPES_IN_NAME) {
			if (lower.contains("_" + typeName + "_") || lower.endsWith("_" + typeName)) {
				problem.accept(family, "metric name should not include type '" + typeName + "'");
			}
		}
		if (name.contains(":")) {
			problem.accept(family, "metric names should not contain ':'");
		}
		if (CAMEL_CASE.matcher(name).find()) {
			problem.accept(family, "metric names should be written in 'snake_case' not 'camelCase'");
		}
		for (Map<String, String> labels : family.series()) {
			for (String label : labels.keySet()) {
				if (CAMEL_CASE.matcher(label).find()) {
					problem.accept(family, "label names should be written in 'snake_case' not 'camelCase'");
				}
			}
		}
		for (String abbreviation : ABBREVIATIONS) {
			if (lower.contains("_" + abbreviation + "_") || lower.endsWith("_" + abbreviation)) {
				problem.accept(family, "metric names should not contain abbreviated units");
			}
		}
	}

	/**
	 * Whether promtool's text parser would set a help text: it skips blanks and tabs
	 * after the name and sets none when the line ends there, so an empty or blank
	 * {@code # HELP} line counts as no help.
	 */
	private static boolean hasHelp(String help) {
		if (help == null) {
			return false;
		}
		for (int i = 0; i < help.length(); i++) {
			char c = help.charAt(i);
			if (c != ' ' && c != '\t') {
				return true;
			}
		}
		return false;
	}

	/**
	 * The unit word of a name and its base unit, or {@code null} when the name has none.
	 */
	private static String[] metricUnit(String name) {
		String[] parts = name.split("_");
		for (Map.Entry<String, String> unit : UNITS.entrySet()) {
			for (String prefix : UNIT_PREFIXES) {
				for (String part : parts) {
					if (part.equals(prefix + unit.getKey())) {
						return new String[] { part, unit.getValue() };
					}
				}
			}
		}
		return null;
	}

	private static Map<String, String> units() {
		Map<String, String> units = new LinkedHashMap<>();
		for (String base : new String[] { "amperes", "bytes", "celsius", "grams", "joules", "kelvin", "meters",
				"metres", "seconds", "volts" }) {
			units.put(base, base);
		}
		String[][] nonBase = { { "minutes", "seconds" }, { "hours", "seconds" }, { "days", "seconds" },
				{ "weeks", "seconds" }, { "kelvins", "kelvin" }, { "fahrenheit", "celsius" }, { "rankine", "celsius" },
				{ "inches", "meters" }, { "yards", "meters" }, { "miles", "meters" }, { "bits", "bytes" },
				{ "calories", "joules" }, { "pounds", "grams" }, { "ounces", "grams" } };
		for (String[] unit : nonBase) {
			units.put(unit[0], unit[1]);
		}
		return units;
	}

}
