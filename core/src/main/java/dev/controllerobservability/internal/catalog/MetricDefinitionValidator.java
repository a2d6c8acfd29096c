package dev.controllerobservability.internal.catalog;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.PerObject;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.settings.DurationText;
import dev.controllerobservability.internal.stability.Version;

/**
 * The rules a single metric definition must follow; the first broken rule becomes an
 * {@link InvalidMetricDefinitionException} naming the field and the fix.
 */
final class MetricDefinitionValidator {

	/** Base units Prometheus recommends, as a metric name's last part. */
	static final Set<String> BASE_UNITS = Set.of("seconds", "bytes", "ratio", "meters", "volts", "amperes", "celsius",
			"joules", "grams");

	/** Common units that are not base units, and the base unit to use instead. */
	private static final Map<String, String> NON_BASE_UNITS = Map.ofEntries(Map.entry("milliseconds", "seconds"),
			Map.entry("ms", "seconds"), Map.entry("microseconds", "seconds"), Map.entry("nanoseconds", "seconds"),
			Map.entry("ns", "seconds"), Map.entry("minutes", "seconds"), Map.entry("hours", "seconds"),
			Map.entry("days", "seconds"), Map.entry("sec", "seconds"), Map.entry("secs", "seconds"),
			Map.entry("kilobytes", "bytes"), Map.entry("kb", "bytes"), Map.entry("megabytes", "bytes"),
			Map.entry("mb", "bytes"), Map.entry("gigabytes", "bytes"), Map.entry("gb", "bytes"),
			Map.entry("bits", "bytes"), Map.entry("percent", "ratio"), Map.entry("kilograms", "grams"));

	private static final List<String> RESERVED_SUFFIXES = List.of("_created", "_bucket", "_count", "_sum", "_total",
			"_info");

	private static final int MAX_PRESET_SERIES = 10_000;

	/** Shortest time a per-object series may live without being written. */
	static final Duration MIN_TIME_TO_LIVE = Duration.ofSeconds(1);

	private MetricDefinitionValidator() {
	}

	static void validate(NamingPolicy naming, MetricDefinition definition) {
		String name = definition.name();
		checkName(naming, definition, name, null);
		if (definition.help() == null || definition.help().isBlank()) {
			throw new InvalidMetricDefinitionException(name, "help", definition.help(),
					"every metric needs help text: it becomes the # HELP line and the reference docs",
					"Describe what the metric counts or measures, such as 'Number of nodes launched by a provisioner.'");
		}
		checkObjectLabels(definition);
		checkLabels(definition);
		checkBuckets(definition);
		checkUnit(definition);
		version(name, "deprecated-version", definition.deprecatedVersion());
		checkLabelValues(definition);
		checkPerObject(definition);
	}

	/** A per-object metric's own labels do not name the object again. */
	private static void checkObjectLabels(MetricDefinition definition) {
		PerObject perObject = definition.perObject();
		if (perObject == null) {
			return;
		}
		List<String> own = definition.labels().subList(perObject.labels().size(), definition.labels().size());
		for (String label : perObject.labels()) {
			if (own.contains(label)) {
				throw new InvalidMetricDefinitionException(definition.name(), "labels", label,
						"'" + label + "' names the object of a per-object metric, and per-object adds it",
						"Remove '" + label + "' from the labels");
			}
		}
	}

	private static void checkPerObject(MetricDefinition definition) {
		PerObject perObject = definition.perObject();
		if (perObject == null) {
			return;
		}
		Duration timeToLive = perObject.timeToLive();
		if (timeToLive != null && timeToLive.compareTo(MIN_TIME_TO_LIVE) < 0) {
			throw new InvalidMetricDefinitionException(definition.name(), "time-to-live", DurationText.of(timeToLive),
					"a per-object series must live at least " + MIN_TIME_TO_LIVE.toSeconds()
							+ " second without being written: a shorter time would remove series between "
							+ "two writes of a busy object",
					"Give 1s or more, such as 10m, or leave it out to keep series until their object is forgotten");
		}
		for (String label : perObject.labels()) {
			if (definition.labelValues().containsKey(label)) {
				throw new InvalidMetricDefinitionException(definition.name(), "label-values." + label,
						definition.labelValues().get(label),
						"'" + label + "' names the object of a per-object metric and takes the value of each object "
								+ "recorded",
						"Remove the known values of '" + label + "'");
			}
		}
	}

	/** Checks a metric name or, with {@code field} set, an old name it replaces. */
	static void checkName(NamingPolicy naming, MetricDefinition definition, String name, String field) {
		String subject = definition.name();
		if (!MetricNames.isSnakeCase(name)) {
			throw new InvalidMetricDefinitionException(subject, field, name,
					"a metric name must be snake_case: lower-case letters, digits and '_', not starting with a "
							+ "digit or '__' (':' is kept for recording rules)",
					"Use a name such as '" + suggestion(name) + "'");
		}
		String stem = name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
		if (MetricConventions.SELF_METRICS.contains(stem)) {
			String total = name.equals(stem) ? "" : "_total";
			throw new InvalidMetricDefinitionException(subject, field, name, naming.exposedName(stem + "_total")
					+ " is one of the metrics the starter keeps about itself, which this " + "would take the place of",
					"Choose another name, such as '" + stem + "_of_controller" + total + "'");
		}
		if (naming.isControllerMeter(name)) {
			throw new InvalidMetricDefinitionException(subject, field, name,
					"declared names do not carry the namespace; it is added when the metric is exposed, so this would "
							+ "become " + naming.exposedName(name),
					"Declare it as '" + name.substring(Math.min(name.length(), naming.namespace().length() + 1)) + "'");
		}
		MetricType type = definition.type();
		String base = name;
		if (type == MetricType.COUNTER) {
			if (!name.endsWith("_total")) {
				throw new InvalidMetricDefinitionException(subject, field, name,
						"a counter's name must end with _total", "Rename it to '" + name + "_total'");
			}
			base = name.substring(0, name.length() - "_total".length());
		}
		else if (name.endsWith("_total")) {
			throw new InvalidMetricDefinitionException(subject, field, name,
					"only counters may end with _total, and this is a " + type,
					"Drop the suffix ('" + name.substring(0, name.length() - 6) + "') or make it a counter");
		}
		if (type == MetricType.INFO) {
			if (!name.endsWith("_info")) {
				throw new InvalidMetricDefinitionException(subject, field, name,
						"an info metric's name must end with _info", "Rename it to '" + name + "_info'");
			}
			base = name.substring(0, name.length() - "_info".length());
		}
		for (String suffix : RESERVED_SUFFIXES) {
			if (base.endsWith(suffix) && !base.equals(suffix.substring(1))) {
				throw reservedSuffix(subject, field, name, base, suffix, type);
			}
		}
	}

	private static InvalidMetricDefinitionException reservedSuffix(String subject, String field, String name,
			String base, String suffix, MetricType type) {
		String stem = base.substring(0, base.length() - suffix.length());
		String typeSuffix = (type == MetricType.COUNTER) ? "_total" : (type == MetricType.INFO) ? "_info" : "";
		if (suffix.equals("_created")) {
			return new InvalidMetricDefinitionException(subject, field, name,
					"'_created' is reserved by OpenMetrics for a counter's creation time: the Prometheus client "
							+ "rejects such names and Micrometer strips the suffix, so it would be exposed under "
							+ "another name",
					"Use a name that does not end in _created, such as '" + stem + "_launched" + typeSuffix + "' or '"
							+ stem + "_creations" + typeSuffix + "'");
		}
		return new InvalidMetricDefinitionException(subject, field, name,
				"'" + suffix + "' is reserved for the series Prometheus derives from histograms, summaries, counters "
						+ "and info metrics, so the name would be exposed differently",
				"Use a name that does not end in " + suffix + ", such as '" + stem + typeSuffix + "'");
	}

	private static void checkLabels(MetricDefinition definition) {
		Set<String> seen = new HashSet<>();
		for (String label : definition.labels()) {
			if (!MetricNames.isSnakeCase(label)) {
				throw new InvalidMetricDefinitionException(definition.name(), "labels", label,
						"a label must be snake_case: lower-case letters, digits and '_', not starting with a digit or '__'",
						"Rename it to something like '" + suggestion(label) + "'");
			}
			if (label.equals("le") || label.equals("quantile")) {
				throw new InvalidMetricDefinitionException(definition.name(), "labels", label,
						"'le' and 'quantile' are set by Prometheus on histogram and summary series",
						"Choose another label name");
			}
			if (!seen.add(label)) {
				throw new InvalidMetricDefinitionException(definition.name(), "labels", label,
						"the label '" + label + "' is listed twice", "Remove the duplicate");
			}
		}
	}

	private static void checkBuckets(MetricDefinition definition) {
		if (definition.buckets().isEmpty()) {
			return;
		}
		if (definition.type() != MetricType.HISTOGRAM) {
			throw new InvalidMetricDefinitionException(definition.name(), "buckets", definition.buckets(),
					"only histograms have buckets, and this is a " + definition.type(),
					"Remove the buckets or make it a histogram");
		}
		BucketRules.Problem problem = BucketRules.checkValues(definition.buckets());
		if (problem != null) {
			throw new InvalidMetricDefinitionException(definition.name(), "buckets", definition.buckets(),
					problem.reason(), problem.action());
		}
	}

	private static void checkUnit(MetricDefinition definition) {
		String unit = definition.unit();
		if (unit == null) {
			return;
		}
		String base = NON_BASE_UNITS.get(unit.toLowerCase(Locale.ROOT));
		if (base != null) {
			throw new InvalidMetricDefinitionException(definition.name(), "unit", unit,
					"Prometheus metrics use base units, and '" + unit + "' is not one",
					"Record in " + base + " and set unit: " + base);
		}
		if (!BASE_UNITS.contains(unit)) {
			throw new InvalidMetricDefinitionException(definition.name(), "unit", unit,
					"'" + unit + "' is not a Prometheus base unit",
					"Use one of " + BASE_UNITS.stream().sorted().toList() + ", or leave the unit out");
		}
		String name = definition.name();
		String stem = (definition.type() == MetricType.COUNTER) ? name.substring(0, name.length() - 6) : name;
		if (!stem.endsWith("_" + unit)) {
			throw new InvalidMetricDefinitionException(definition.name(), "unit", unit,
					"the name must end with its unit so readers see it",
					"Rename the metric to end with _" + unit
							+ ((definition.type() == MetricType.COUNTER) ? "_total" : "") + ", such as '" + stem + "_"
							+ unit + ((definition.type() == MetricType.COUNTER) ? "_total" : "") + "'");
		}
	}

	private static void checkLabelValues(MetricDefinition definition) {
		long series = 1;
		for (Map.Entry<String, List<String>> entry : definition.labelValues().entrySet()) {
			if (!definition.labels().contains(entry.getKey())) {
				throw new InvalidMetricDefinitionException(definition.name(), "label-values", entry.getKey(),
						"'" + entry.getKey() + "' is not one of the metric's labels " + definition.labels(),
						"Add it to labels or remove its values");
			}
			List<String> values = entry.getValue();
			if (values.isEmpty() || values.stream().anyMatch((value) -> value == null || value.isEmpty())
					|| new HashSet<>(values).size() != values.size()) {
				throw new InvalidMetricDefinitionException(definition.name(), "label-values", values,
						"known values of '" + entry.getKey() + "' must be distinct and not empty",
						"List each value once, such as [success, error]");
			}
			series *= values.size();
		}
		if (series > MAX_PRESET_SERIES) {
			throw new InvalidMetricDefinitionException(definition.name(), "label-values", series + " series",
					"pre-setting more than " + MAX_PRESET_SERIES + " series would flood the scrape",
					"List fewer known values");
		}
	}

	static Version version(String metric, String field, String text) {
		if (text == null) {
			return null;
		}
		try {
			return Version.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidMetricDefinitionException(metric, field, text,
					"a version must have the form MAJOR.MINOR.PATCH", "Write it like 1.4.0");
		}
	}

	private static String suggestion(String name) {
		String snake = MetricNames.toSnakeCase(name);
		return MetricNames.isSnakeCase(snake) ? snake : "nodes_launched_total";
	}

}
