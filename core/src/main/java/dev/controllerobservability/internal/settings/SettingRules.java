package dev.controllerobservability.internal.settings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.operations.OperationDefinition;

/**
 * The rules every setting passes, whichever path set it: the core builder and the Spring
 * Boot properties call the same method for the same setting, so the same value is refused
 * for the same reason. Each method returns the value as it will be used, or throws an
 * {@link InvalidSettingException} naming the setting both ways.
 */
public final class SettingRules {

	private static final Pattern PROMETHEUS_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

	private static final Pattern METER_PREFIX = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");

	private SettingRules() {
	}

	/**
	 * Checks a namespace.
	 * @param namespace the namespace
	 * @return the namespace
	 */
	public static String namespace(@Nullable String namespace) {
		if (namespace == null || !MetricNames.isSnakeCase(namespace)) {
			throw Setting.NAMESPACE.refuse(namespace,
					"a namespace must be a snake_case Prometheus name: lower-case letters, digits and '_', "
							+ "not starting with a digit or '__'",
					"Set it to a name such as '" + suggestion(namespace, "my_controller") + "'");
		}
		String framework = frameworkPrefixOf(namespace);
		if (framework != null) {
			throw Setting.NAMESPACE.refuse(namespace,
					"'" + namespace + "' " + (framework.equals(namespace) ? "is" : "starts with") + " the prefix of "
							+ "framework or Kubernetes client metrics (" + framework + "_*), so controller metrics "
							+ "would mix with them",
					"Use your controller's own name, such as 'karpenter'");
		}
		return namespace;
	}

	/**
	 * Whether a name derived from elsewhere, such as an application's name, may serve as
	 * the namespace.
	 * @param namespace the derived name
	 * @return whether {@link #namespace(String)} accepts it
	 */
	public static boolean isUsableNamespace(String namespace) {
		return MetricNames.isSnakeCase(namespace) && frameworkPrefixOf(namespace) == null;
	}

	/**
	 * Checks the common tags.
	 * @param tags the tags by key, in order
	 * @return the tags
	 */
	public static Tags commonTags(Map<String, @Nullable String> tags) {
		Tags checked = Tags.empty();
		for (Map.Entry<String, @Nullable String> entry : tags.entrySet()) {
			Setting setting = Setting.COMMON_TAGS.key(entry.getKey());
			labelKey(setting, entry.getKey(), entry.getKey());
			String value = entry.getValue();
			if (value == null || value.isBlank()) {
				throw setting.refuse(value,
						"a tag value must not be empty; Prometheus treats an empty value as a missing label",
						"Give the tag a value, or remove it");
			}
			checked = checked.and(entry.getKey(), value);
		}
		return checked;
	}

	/**
	 * Checks the label keys of every operation metric.
	 * @param keys the keys
	 * @return the keys
	 */
	public static List<String> operationTags(List<@Nullable String> keys) {
		List<String> checked = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			String key = keys.get(i);
			Setting setting = Setting.OPERATION_TAGS.element(i);
			labelKey(setting, key, key);
			if (checked.contains(key)) {
				throw setting.refuse(key, "the label key '" + key + "' is listed twice", "Remove the duplicate");
			}
			checked.add(key);
		}
		return List.copyOf(checked);
	}

	private static void labelKey(Setting setting, @Nullable Object value, @Nullable String key) {
		if (key == null || !MetricNames.isSnakeCase(key)) {
			throw setting.refuse(value,
					"a label key must be a snake_case Prometheus label name: lower-case letters, digits and '_', "
							+ "not starting with a digit or '__'",
					"Rename it to something like '" + suggestion(key, "provisioner") + "'");
		}
		if (MetricConventions.RESERVED_LABELS.contains(key)) {
			throw setting.refuse(value,
					"'" + key + "' is reserved (" + String.join(", ", MetricConventions.RESERVED_LABELS)
							+ " are set by Prometheus or by operation timing)",
					"Choose another label key");
		}
	}

	/**
	 * Checks duration buckets, in seconds.
	 * @param setting the setting they were given as
	 * @param buckets the boundaries
	 * @return the boundaries
	 */
	public static List<Double> durationBuckets(Setting setting, @Nullable List<Double> buckets) {
		BucketRules.Problem problem = BucketRules.checkDurations(buckets);
		if (problem != null) {
			throw ((problem.index() >= 0) ? setting.element(problem.index()) : setting).refuse(problem.value(),
					problem.reason(), problem.action());
		}
		return List.copyOf(buckets);
	}

	/**
	 * Checks the dotted prefixes of meters that belong to the controller.
	 * @param prefixes the prefixes
	 * @return the prefixes
	 */
	public static List<String> meterPrefixes(@Nullable List<@Nullable String> prefixes) {
		if (prefixes == null) {
			throw Setting.METER_PREFIXES.refuse(null, "the prefixes must not be null", "Pass no argument for none");
		}
		for (int i = 0; i < prefixes.size(); i++) {
			String prefix = prefixes.get(i);
			Setting setting = Setting.METER_PREFIXES.element(i);
			if (prefix == null || !METER_PREFIX.matcher(prefix).matches()) {
				throw setting.refuse(prefix, "a meter prefix is a dotted Micrometer name of snake_case parts",
						"Use a prefix such as 'nodes' or 'cloud.api'");
			}
			String framework = frameworkPrefixOf(prefix);
			if (framework != null) {
				throw setting.refuse(prefix,
						"'" + prefix + "' names framework meters (" + framework + "_*), which would all get the "
								+ "namespace, common tags and buckets and leave their standard names",
						"List only prefixes of meters your controller registers itself, such as 'nodes' or "
								+ "'cloud.api'");
			}
		}
		return List.copyOf(prefixes);
	}

	/** The framework prefix a dotted meter prefix falls under, or {@code null}. */
	private static @Nullable String frameworkPrefixOf(String meterPrefix) {
		String name = meterPrefix.replace('.', '_');
		for (String framework : MetricConventions.FRAMEWORK_PREFIXES) {
			if (name.equals(framework) || name.startsWith(framework + "_")) {
				return framework;
			}
		}
		return null;
	}

	/**
	 * Checks the least time between two recording-failure log lines.
	 * @param interval the interval
	 * @return the interval
	 */
	public static Duration errorLogInterval(@Nullable Duration interval) {
		if (interval == null || interval.isNegative()) {
			throw Setting.ERROR_LOG_INTERVAL.refuse(interval, "the interval must be zero or positive",
					"Set it to a duration such as 1m or 30s");
		}
		return interval;
	}

	/**
	 * Checks a limit that must be at least 1.
	 * @param setting the limit
	 * @param value its value
	 * @return the value
	 */
	public static int atLeastOne(Setting setting, int value) {
		if (value < 1) {
			throw setting.refuse(value, "the limit must be at least 1", "Set a positive number");
		}
		return value;
	}

	/**
	 * Checks per-operation settings and names the operations as their metrics do.
	 * @param definitions the settings by operation name as given, in order
	 * @return the settings by snake_case operation name, in the same order
	 */
	public static Map<String, OperationDefinition> operationDefinitions(
			Collection<? extends Map.Entry<@Nullable String, @Nullable OperationDefinition>> definitions) {
		Map<String, OperationDefinition> checked = new LinkedHashMap<>();
		Map<String, String> given = new LinkedHashMap<>();
		for (Map.Entry<@Nullable String, @Nullable OperationDefinition> entry : definitions) {
			if (entry.getKey() == null) {
				throw Setting.operation("null")
					.refuse(null, "an operation needs a name",
							"Name the operation as it is called, such as 'apply-packing'");
			}
			Setting setting = Setting.operation(entry.getKey());
			if (entry.getValue() == null) {
				throw setting.refuse(null, "an operation's settings must not be null",
						"Pass OperationDefinition.DEFAULT for the shared defaults");
			}
			String name = MetricNames.toSnakeCase(entry.getKey());
			if (!MetricNames.isSnakeCase(name)) {
				throw setting.refuse(entry.getKey(), "an operation name must turn into a snake_case metric name part",
						"Use letters, digits, '-' and '_', starting with a letter, such as 'apply-packing'");
			}
			String previous = given.putIfAbsent(name, entry.getKey());
			if (entry.getKey().equals(previous)) {
				throw setting.refuse(entry.getKey(), "the operation '" + previous + "' is given twice",
						"Keep one of the two definitions");
			}
			if (previous != null) {
				throw setting.refuse(entry.getKey(),
						"'" + entry.getKey() + "' and '" + previous + "' are the same operation ('" + name + "')",
						"Keep one of the two definitions");
			}
			checked.put(name, operationDefinition(setting, entry.getValue()));
		}
		// The order given is kept: dashboards and rules list operations in it.
		return Collections.unmodifiableMap(checked);
	}

	private static OperationDefinition operationDefinition(Setting setting, OperationDefinition definition) {
		String subsystem = definition.subsystem();
		if (subsystem != null && !MetricNames.isSnakeCase(subsystem)) {
			throw setting.field("subsystem")
				.refuse(subsystem, "a subsystem is a snake_case metric name part",
						"Rename it to something like '" + suggestion(subsystem, "allocation_controller") + "'");
		}
		String description = definition.description();
		if (description != null && description.isBlank()) {
			throw setting.field("description")
				.refuse(description, "the description becomes the metric's HELP text and must not be blank",
						"Describe what the operation does, or leave it unset for a generated text");
		}
		if (!definition.buckets().isEmpty()) {
			durationBuckets(setting.field("buckets"), definition.buckets());
		}
		return definition;
	}

	/**
	 * Checks the controller's version.
	 * @param version the version, or {@code null} when unknown
	 * @return the parsed version, or {@code null}
	 */
	public static @Nullable Version version(@Nullable String version) {
		if (version == null) {
			return null;
		}
		try {
			return Version.parse(version);
		}
		catch (IllegalArgumentException ex) {
			throw Setting.VERSION.refuse(version, "the controller's version must have the form MAJOR.MINOR.PATCH",
					"Set it like 1.5.0, or leave it unset (then the Spring Boot starter takes the build-info version)");
		}
	}

	/**
	 * Checks which metrics are visible: the minor version whose hidden metrics are shown
	 * again, and the disabled metrics.
	 * @param version the controller's version, or {@code null} when unknown
	 * @param showHiddenFor the minor version, or {@code null} for none
	 * @param disabledMetrics exposed names of metrics never registered
	 * @return the policy
	 */
	public static StabilityPolicy stability(@Nullable Version version, @Nullable String showHiddenFor,
			List<String> disabledMetrics) {
		Version showHidden = null;
		if (showHiddenFor != null) {
			try {
				showHidden = Version.parseMinor(showHiddenFor);
			}
			catch (IllegalArgumentException ex) {
				throw Setting.SHOW_HIDDEN_METRICS_FOR_VERSION.refuse(showHiddenFor,
						"the value must have the form MAJOR.MINOR; "
								+ StabilityPolicy.describeAllowedShowHidden(version),
						"Set it to the previous minor version, or remove it");
			}
		}
		try {
			return new StabilityPolicy(version, showHidden, Set.copyOf(disabledMetrics));
		}
		catch (IllegalArgumentException ex) {
			throw Setting.SHOW_HIDDEN_METRICS_FOR_VERSION.refuse(showHiddenFor, ex.getMessage(),
					"Set it to the previous minor version, or remove it");
		}
	}

	/**
	 * Checks the exposed names of metrics never registered.
	 * @param names the names
	 * @return the names
	 */
	public static List<String> disabledMetrics(@Nullable List<@Nullable String> names) {
		return disabledMetrics(Setting.DISABLED_METRICS, names);
	}

	/**
	 * Checks the exposed names of metrics never registered, given to another builder than
	 * {@code ControllerObservability.Builder}.
	 * @param setting the property and the builder call the names were given to
	 * @param names the names
	 * @return the names
	 */
	public static List<String> disabledMetrics(Setting setting, @Nullable List<@Nullable String> names) {
		if (names == null) {
			throw setting.refuse(null, "the names must not be null", "Pass List.of() for none");
		}
		for (int i = 0; i < names.size(); i++) {
			String name = names.get(i);
			if (name == null || !PROMETHEUS_NAME.matcher(name).matches()) {
				throw setting.element(i)
					.refuse(name,
							"a Prometheus metric name has letters, digits, '_' and ':' and does not start with a "
									+ "digit, so this disables nothing",
							"Use the name as the scrape shows it, such as '"
									+ ((name != null) ? suggestion(name, "karpenter_old_total") : "karpenter_old_total")
									+ "'");
			}
		}
		return List.copyOf(names);
	}

	/**
	 * Checks the allowed label values.
	 * @param allowList the allowed values by exposed metric name and label
	 * @return the same, unmodifiable
	 */
	public static Map<String, Map<String, Set<String>>> labelAllowList(
			Map<@Nullable String, ? extends Map<@Nullable String, ? extends @Nullable Collection<@Nullable String>>> allowList) {
		Map<String, Map<String, Set<String>>> checked = new LinkedHashMap<>();
		allowList.forEach((metric, labels) -> {
			if (metric == null) {
				throw Setting.LABEL_ALLOW_LIST.refuse(null, "an allow-list needs the metric's name",
						"Name the metric as the scrape shows it, such as 'karpenter_nodes_created_total'");
			}
			Map<String, Set<String>> byLabel = new LinkedHashMap<>();
			labels.forEach((label, values) -> {
				Setting setting = Setting.LABEL_ALLOW_LIST.key(metric).key(String.valueOf(label));
				if (label == null || !MetricNames.isSnakeCase(label)) {
					throw setting.refuse(label, "a label must be snake_case",
							"Use the label's name as the metric declares it");
				}
				if (values == null || values.isEmpty()
						|| values.stream().anyMatch((value) -> value == null || value.isEmpty())) {
					throw setting.refuse(values, "an allow-list needs at least one value and no empty value",
							"List the allowed values, such as [us-east-1a, us-east-1b]");
				}
				byLabel.put(label, Set.copyOf(values));
			});
			checked.put(metric, Map.copyOf(byLabel));
		});
		return Map.copyOf(checked);
	}

	/**
	 * Checks that every allowed label value can be matched: values are cut to the longest
	 * label value kept before the allow-list is read.
	 * @param allowList the checked allow-lists
	 * @param maxLabelValueLength the checked longest label value kept
	 */
	public static void allowListFits(Map<String, Map<String, Set<String>>> allowList, int maxLabelValueLength) {
		allowList.forEach((metric, labels) -> labels.forEach((label, values) -> {
			for (String value : values) {
				if (value.length() > maxLabelValueLength) {
					throw Setting.LABEL_ALLOW_LIST.key(metric)
						.key(label)
						.refuse(value,
								"the allowed value '" + value + "' is longer than the longest label value kept ("
										+ maxLabelValueLength + " characters): values are cut to that length before "
										+ "the allow-list is read, so it would never match",
								"Allow values of at most " + maxLabelValueLength
										+ " characters, or raise the longest label value kept");
				}
			}
		}));
	}

	/**
	 * Checks that no declared metric is missing.
	 * @param metrics the declared metrics
	 * @return the same metrics
	 */
	public static List<MetricDefinition> metrics(List<@Nullable MetricDefinition> metrics) {
		if (metrics.contains(null)) {
			throw Setting.METRICS.refuse(null, "a declared metric must not be null",
					"Pass a definition such as MetricDefinition.counter(\"nodes_created_total\").help(\"…\").build()");
		}
		return List.copyOf(metrics);
	}

	/**
	 * Checks the declared metrics, each and against the others.
	 * @param namespace the checked namespace
	 * @param metrics the declared metrics
	 * @return the catalog
	 */
	public static MetricCatalog catalog(String namespace, Collection<MetricDefinition> metrics) {
		try {
			return MetricCatalog.of(namespace, metrics);
		}
		catch (InvalidMetricDefinitionException ex) {
			throw refused(ex);
		}
	}

	/**
	 * A declared metric the core refused, as the setting it was given by.
	 * @param refused the refusal
	 * @return the exception naming {@code metrics.<name>.<field>} and {@code metric(…)}
	 */
	public static InvalidSettingException refused(InvalidMetricDefinitionException refused) {
		Setting metric = Setting.metric(refused.getMetric());
		Setting setting = (refused.getField() != null) ? metric.field(refused.getField()) : metric;
		return new InvalidSettingException(setting.property(), setting.builderCall(), refused.getValue(),
				refused.getReason(), refused.getAction(), refused);
	}

	private static String suggestion(@Nullable String value, String fallback) {
		String snake = (value != null) ? MetricNames.toSnakeCase(value) : "";
		return MetricNames.isSnakeCase(snake) ? snake : fallback;
	}

}
