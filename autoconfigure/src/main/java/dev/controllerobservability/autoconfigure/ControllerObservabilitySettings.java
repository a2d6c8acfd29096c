package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Tags;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.rules.AlertSeverity;
import dev.controllerobservability.internal.rules.OperationRuleSettings;
import dev.controllerobservability.rules.ScrapeTarget;

/**
 * {@link ControllerObservabilityProperties} resolved and validated once at start-up: the
 * namespace derived, operation names normalized, every value checked. A bad value stops
 * start-up with an {@link InvalidObservabilityPropertyException} naming the property.
 *
 * @param namespace snake_case prefix of every controller metric
 * @param commonTags tags added to controller metrics only
 * @param durationBuckets default bucket boundaries in seconds
 * @param meterPrefixes dotted prefixes of meters that belong to the controller
 * @param errorLogInterval minimum time between two recording-failure log lines
 * @param operations what operation metrics carry and how they are recorded
 * @param stability which metrics are visible, deprecated, hidden or disabled
 * @param disabledMetrics Prometheus names of metrics never to register
 * @param labelAllowList allowed label values by Prometheus metric name and label
 * @param maxLabelValues most distinct values per metric and label
 * @param maxLabelValueLength longest label value kept
 * @param maxSeriesPerMetric most label sets per metric before its overflow series
 * @param catalog the metrics declared in configuration
 * @param rules the rules, alerts and scrape settings the generated artefacts come from
 * @param lint how the metrics linter judges the scrape
 */
record ControllerObservabilitySettings(String namespace, Tags commonTags, List<Double> durationBuckets,
		List<String> meterPrefixes, Duration errorLogInterval, Operations operations, StabilityPolicy stability,
		List<String> disabledMetrics, Map<String, Map<String, Set<String>>> labelAllowList, int maxLabelValues,
		int maxLabelValueLength, int maxSeriesPerMetric, Catalog catalog, Rules rules, Lint lint) {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private static final String REGISTRY_TAGS = "management.metrics.tags";

	private static final Set<String> PROMETHEUS_RESERVED_LABELS = Set.of("le", "quantile");

	private static final Pattern PROMETHEUS_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

	private static final Pattern METER_PREFIX = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");

	/**
	 * Resolves and validates the properties.
	 * @param properties the bound properties
	 * @param environment for {@code spring.application.name}
	 * @param buildVersion the build-info version, the default controller version, or
	 * {@code null}
	 * @return the settings
	 * @throws InvalidObservabilityPropertyException for the first invalid value
	 */
	static ControllerObservabilitySettings resolve(ControllerObservabilityProperties properties,
			Environment environment, String buildVersion) {
		PropertySourceNames.check(environment);
		String namespace = namespace(properties.getNamespace(), environment.getProperty("spring.application.name"));
		Tags commonTags = commonTags(properties.getCommonTags());
		checkRegistryTags(environment);
		List<Double> buckets = buckets("duration-buckets", properties.getDurationBuckets());
		List<String> meterPrefixes = meterPrefixes(properties.getMeterPrefixes());
		Duration errorLogInterval = properties.getErrorLogInterval();
		if (errorLogInterval == null || errorLogInterval.isNegative()) {
			throw new InvalidObservabilityPropertyException(PREFIX + "error-log-interval", errorLogInterval,
					"the interval must be zero or positive", "Set it to a duration such as 1m or 30s");
		}
		Operations operations = operations(properties.getOperations(), environment);
		StabilityPolicy stability = stability(properties, buildVersion);
		Map<String, Map<String, Set<String>>> allowList = allowList(properties.getLabelAllowList());
		int maxLabelValues = atLeastOne("max-label-values", properties.getMaxLabelValues());
		int maxLabelValueLength = atLeastOne("max-label-value-length", properties.getMaxLabelValueLength());
		int maxSeriesPerMetric = atLeastOne("max-series-per-metric", properties.getMaxSeriesPerMetric());
		List<String> disabledMetrics = disabledMetrics(properties.getDisabledMetrics());
		Catalog catalog = new Catalog(MetricCatalogFactory.definitions(namespace, properties.getMetrics()));
		Rules rules = RulesResolver.resolve(properties, namespace, environment);
		LintProperties lint = properties.getLint();
		return new ControllerObservabilitySettings(namespace, commonTags, buckets, meterPrefixes, errorLogInterval,
				operations, stability, disabledMetrics, allowList, maxLabelValues, maxLabelValueLength,
				maxSeriesPerMetric, catalog, rules, new Lint(Set.copyOf(lint.getAllowedLabels()),
						List.copyOf(lint.getFrameworkPrefixes()), lint.getMode()));
	}

	/**
	 * The operations section; a new {@code operations.*} property is read and checked
	 * here and becomes a component of {@link Operations}.
	 */
	private static Operations operations(OperationsProperties properties, Environment environment) {
		List<String> tags = labelKeys("operations.tags", properties.getTags());
		Map<String, OperationDefinitionProperties> configured = new LinkedHashMap<>(properties.getDefinitions());
		// bind: {} declares an operation too, though YAML leaves no property for it.
		EmptyOperationDefinitions.find(environment)
			.keySet()
			.forEach((name) -> configured.putIfAbsent(name, new OperationDefinitionProperties()));
		Map<String, OperationDefinition> definitions = definitions(configured);
		int maxOperations = atLeastOne("operations.max-operations", properties.getMaxOperations());
		return new Operations(tags, definitions, maxOperations, properties.isDirectRecording(),
				properties.getBackend());
	}

	private static StabilityPolicy stability(ControllerObservabilityProperties properties, String buildVersion) {
		Version version = null;
		if (properties.getVersion() != null) {
			try {
				version = Version.parse(properties.getVersion());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidObservabilityPropertyException(PREFIX + "version", properties.getVersion(),
						"the controller's version must have the form MAJOR.MINOR.PATCH",
						"Set it like 1.5.0, or remove it to use the build-info version");
			}
		}
		else if (buildVersion != null) {
			try {
				version = Version.parse(buildVersion);
			}
			catch (IllegalArgumentException ex) {
				// A build version such as "dev" says nothing about deprecation: hide
				// nothing.
			}
		}
		Version showHidden = null;
		String showHiddenText = properties.getShowHiddenMetricsForVersion();
		if (showHiddenText != null) {
			try {
				showHidden = Version.parseMinor(showHiddenText);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidObservabilityPropertyException(PREFIX + "show-hidden-metrics-for-version",
						showHiddenText,
						"the value must have the form MAJOR.MINOR; "
								+ StabilityPolicy.describeAllowedShowHidden(version),
						"Set it to the previous minor version, or remove it");
			}
		}
		try {
			return new StabilityPolicy(version, showHidden, Set.copyOf(properties.getDisabledMetrics()));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidObservabilityPropertyException(PREFIX + "show-hidden-metrics-for-version", showHiddenText,
					ex.getMessage(), "Set it to the previous minor version, or remove it");
		}
	}

	private static Map<String, Map<String, Set<String>>> allowList(Map<String, Map<String, List<String>>> configured) {
		Map<String, Map<String, Set<String>>> allowList = new LinkedHashMap<>();
		configured.forEach((metric, labels) -> {
			Map<String, Set<String>> byLabel = new LinkedHashMap<>();
			labels.forEach((label, values) -> {
				String property = "label-allow-list." + metric + "." + label;
				if (!MetricNames.isSnakeCase(label)) {
					throw new InvalidObservabilityPropertyException(PREFIX + property, label,
							"a label must be snake_case", "Use the label's name as the metric declares it");
				}
				if (values.isEmpty() || values.stream().anyMatch((value) -> value == null || value.isEmpty())) {
					throw new InvalidObservabilityPropertyException(PREFIX + property, values,
							"an allow-list needs at least one value and no empty value",
							"List the allowed values, such as [us-east-1a, us-east-1b]");
				}
				byLabel.put(label, Set.copyOf(values));
			});
			allowList.put(metric, Map.copyOf(byLabel));
		});
		return Map.copyOf(allowList);
	}

	private static List<String> disabledMetrics(List<String> names) {
		for (int i = 0; i < names.size(); i++) {
			String name = names.get(i);
			if (name == null || !PROMETHEUS_NAME.matcher(name).matches()) {
				throw new InvalidObservabilityPropertyException(PREFIX + "disabled-metrics[" + i + "]", name,
						"a Prometheus metric name has letters, digits, '_' and ':' and does not start with a digit, so "
								+ "this disables nothing",
						"Use the name as the scrape shows it, such as '"
								+ ((name != null) ? suggestion(name, "karpenter_old_total") : "karpenter_old_total")
								+ "'");
			}
		}
		return List.copyOf(names);
	}

	private static int atLeastOne(String property, int value) {
		if (value < 1) {
			throw new InvalidObservabilityPropertyException(PREFIX + property, value, "the limit must be at least 1",
					"Set a positive number");
		}
		return value;
	}

	private static String namespace(String configured, String applicationName) {
		if (configured == null) {
			String derived = (applicationName != null) ? MetricNames.toSnakeCase(applicationName) : "";
			boolean usable = MetricNames.isSnakeCase(derived) && !isFrameworkPrefix(derived);
			return usable ? derived : MetricConventions.DEFAULT_NAMESPACE;
		}
		if (!MetricNames.isSnakeCase(configured)) {
			throw new InvalidObservabilityPropertyException(PREFIX + "namespace", configured,
					"a namespace must be a snake_case Prometheus name: lower-case letters, digits and '_', "
							+ "not starting with a digit or '__'",
					"Set it to a name such as '" + suggestion(configured, "my_controller") + "'");
		}
		if (isFrameworkPrefix(configured)) {
			throw new InvalidObservabilityPropertyException(PREFIX + "namespace", configured,
					"'" + configured + "' is the prefix of framework or Kubernetes client metrics, so controller "
							+ "metrics would mix with them",
					"Use your controller's own name, such as 'karpenter'");
		}
		return configured;
	}

	private static boolean isFrameworkPrefix(String name) {
		return MetricConventions.FRAMEWORK_PREFIXES.contains(name);
	}

	/** The framework prefix a dotted meter prefix falls under, or {@code null}. */
	private static String frameworkPrefixOf(String meterPrefix) {
		String name = meterPrefix.replace('.', '_');
		for (String framework : MetricConventions.FRAMEWORK_PREFIXES) {
			if (name.equals(framework) || name.startsWith(framework + "_")) {
				return framework;
			}
		}
		return null;
	}

	private static Tags commonTags(Map<String, String> configured) {
		Tags tags = Tags.empty();
		for (Map.Entry<String, String> entry : configured.entrySet()) {
			String property = "common-tags." + entry.getKey();
			labelKey(property, entry.getKey(), entry.getKey());
			if (!StringUtils.hasText(entry.getValue())) {
				throw new InvalidObservabilityPropertyException(PREFIX + property, entry.getValue(),
						"a tag value must not be empty; Prometheus treats an empty value as a missing label",
						"Give the tag a value, or remove it");
			}
			tags = tags.and(entry.getKey(), entry.getValue());
		}
		return tags;
	}

	/**
	 * Refuses {@code management.metrics.tags} keys Prometheus reserves: Spring Boot puts
	 * these tags on every meter, and a histogram or summary with such a label breaks
	 * every scrape.
	 */
	private static void checkRegistryTags(Environment environment) {
		Map<String, String> tags = Binder.get(environment)
			.bind(REGISTRY_TAGS, Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
		for (Map.Entry<String, String> tag : tags.entrySet()) {
			if (PROMETHEUS_RESERVED_LABELS.contains(tag.getKey())) {
				throw new InvalidObservabilityPropertyException(REGISTRY_TAGS + "." + tag.getKey(), tag.getValue(),
						"Prometheus reserves '" + tag.getKey() + "' for "
								+ (tag.getKey().equals("le") ? "the bucket bounds of histograms"
										: "the quantiles of summaries")
								+ ", and Spring Boot puts this tag on every meter: every scrape of a histogram or "
								+ "summary would fail",
						"Choose another tag key");
			}
		}
	}

	private static List<String> labelKeys(String property, List<String> keys) {
		List<String> checked = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			String key = keys.get(i);
			labelKey(property + "[" + i + "]", key, key);
			if (checked.contains(key)) {
				throw new InvalidObservabilityPropertyException(PREFIX + property + "[" + i + "]", key,
						"the label key '" + key + "' is listed twice", "Remove the duplicate");
			}
			checked.add(key);
		}
		return List.copyOf(checked);
	}

	private static void labelKey(String property, Object value, String key) {
		if (!MetricNames.isSnakeCase(key)) {
			throw new InvalidObservabilityPropertyException(PREFIX + property, value,
					"a label key must be a snake_case Prometheus label name: lower-case letters, digits and '_', "
							+ "not starting with a digit or '__'",
					"Rename it to something like '" + suggestion(key, "provisioner") + "'");
		}
		if (MetricConventions.RESERVED_LABELS.contains(key)) {
			throw new InvalidObservabilityPropertyException(PREFIX + property, value,
					"'" + key + "' is reserved (" + String.join(", ", MetricConventions.RESERVED_LABELS)
							+ " are set by Prometheus or by operation timing)",
					"Choose another label key");
		}
	}

	private static List<Double> buckets(String property, List<Double> buckets) {
		BucketRules.Problem problem = BucketRules.checkDurations(buckets);
		if (problem != null) {
			String element = PREFIX + property + ((problem.index() >= 0) ? "[" + problem.index() + "]" : "");
			throw new InvalidObservabilityPropertyException(element, problem.value(), problem.reason(),
					problem.action());
		}
		return List.copyOf(buckets);
	}

	private static List<String> meterPrefixes(List<String> prefixes) {
		for (int i = 0; i < prefixes.size(); i++) {
			String prefix = prefixes.get(i);
			if (prefix == null || !METER_PREFIX.matcher(prefix).matches()) {
				throw new InvalidObservabilityPropertyException(PREFIX + "meter-prefixes[" + i + "]", prefix,
						"a meter prefix is a dotted Micrometer name of snake_case parts",
						"Use a prefix such as 'nodes' or 'cloud.api'");
			}
			String framework = frameworkPrefixOf(prefix);
			if (framework != null) {
				throw new InvalidObservabilityPropertyException(PREFIX + "meter-prefixes[" + i + "]", prefix,
						"'" + prefix + "' names framework meters (" + framework + "_*), which would all get the "
								+ "namespace, common tags and buckets and leave their standard names",
						"List only prefixes of meters your controller registers itself, such as 'nodes' or "
								+ "'cloud.api'");
			}
		}
		return List.copyOf(prefixes);
	}

	private static Map<String, OperationDefinition> definitions(Map<String, OperationDefinitionProperties> configured) {
		Map<String, OperationDefinition> definitions = new LinkedHashMap<>();
		Map<String, String> configuredNames = new LinkedHashMap<>();
		for (Map.Entry<String, OperationDefinitionProperties> entry : configured.entrySet()) {
			String property = "operations.definitions." + entry.getKey();
			String name = MetricNames.toSnakeCase(entry.getKey());
			if (!MetricNames.isSnakeCase(name)) {
				throw new InvalidObservabilityPropertyException(PREFIX + property, entry.getKey(),
						"an operation name must turn into a snake_case metric name part",
						"Use letters, digits, '-' and '_', starting with a letter, such as 'apply-packing'");
			}
			String previous = configuredNames.putIfAbsent(name, entry.getKey());
			if (previous != null) {
				throw new InvalidObservabilityPropertyException(PREFIX + property, entry.getKey(),
						"'" + entry.getKey() + "' and '" + previous + "' are the same operation ('" + name + "')",
						"Keep one of the two definitions");
			}
			definitions.put(name, definition(property, entry.getValue()));
		}
		// Configuration order is kept: dashboards and rules list operations in it.
		return Collections.unmodifiableMap(definitions);
	}

	private static OperationDefinition definition(String property, OperationDefinitionProperties definition) {
		String subsystem = definition.getSubsystem();
		if (subsystem != null && !MetricNames.isSnakeCase(subsystem)) {
			throw new InvalidObservabilityPropertyException(PREFIX + property + ".subsystem", subsystem,
					"a subsystem is a snake_case metric name part",
					"Rename it to something like '" + suggestion(subsystem, "allocation_controller") + "'");
		}
		String description = definition.getDescription();
		if (description != null && !StringUtils.hasText(description)) {
			throw new InvalidObservabilityPropertyException(PREFIX + property + ".description", description,
					"the description becomes the metric's HELP text and must not be blank",
					"Describe what the operation does, or remove the property for a generated text");
		}
		List<Double> buckets = definition.getBuckets().isEmpty() ? List.of()
				: buckets(property + ".buckets", definition.getBuckets());
		return new OperationDefinition(subsystem, description, buckets, definition.getStability());
	}

	private static String suggestion(String value, String fallback) {
		String snake = MetricNames.toSnakeCase(value);
		return MetricNames.isSnakeCase(snake) ? snake : fallback;
	}

	/**
	 * What operation metrics carry and how they are recorded.
	 *
	 * @param tags label keys of every operation metric
	 * @param definitions per-operation settings keyed by snake_case operation name
	 * @param maxOperations most distinct operations recorded, besides declared ones
	 * @param directRecording whether operations record straight into their meters when
	 * only meter handlers would see their observations
	 * @param backend where durations are recorded
	 */
	public record Operations(List<String> tags, Map<String, OperationDefinition> definitions, int maxOperations,
			boolean directRecording, OperationsProperties.Backend backend) {

	}

	/**
	 * The metrics declared in configuration, each checked and checked against the others;
	 * checked against the {@code MetricDefinition} beans when the catalog is built.
	 *
	 * @param metrics the declared metrics, in configuration order
	 */
	public record Catalog(List<MetricDefinition> metrics) {

		public Catalog {
			metrics = List.copyOf(metrics);
		}

	}

	/**
	 * What the rules file, the {@code PrometheusRule}, the monitors and the dashboard are
	 * generated from, checked. The placeholders of alerts and recording rules are
	 * resolved, and the rules checked as Prometheus reads them, when the rule set is
	 * built from the operations.
	 *
	 * @param window range of the rate windows, such as {@code 5m}
	 * @param group name of the rule group
	 * @param prometheusRuleLabels labels of the generated Prometheus Operator resources
	 * @param operations built-in rules per operation, keyed as configured
	 * @param recordingRules recording rules of the user's own, keyed by record name
	 * @param alerts alerts of the user's own, keyed by alert name
	 * @param scrape where and how often Prometheus scrapes the controller
	 */
	public record Rules(String window, String group, Map<String, String> prometheusRuleLabels,
			Map<String, OperationRuleSettings> operations, Map<String, Recording> recordingRules,
			Map<String, Alert> alerts, ScrapeTarget scrape) {

	}

	/**
	 * A recording rule as configured, before its placeholders are resolved.
	 *
	 * @param expr the PromQL expression
	 * @param labels extra labels
	 */
	public record Recording(String expr, Map<String, String> labels) {

		public Recording {
			labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
		}

	}

	/**
	 * An alert as configured, before its placeholders are resolved.
	 *
	 * @param expr the PromQL condition
	 * @param forDuration how long the condition must hold, or {@code null}
	 * @param severity the severity, or {@code null} when not given
	 * @param summary one-line summary annotation
	 * @param description description annotation, or {@code null}
	 * @param runbookUrl runbook link annotation, or {@code null}
	 * @param labels extra labels
	 * @param annotations extra annotations
	 */
	public record Alert(String expr, String forDuration, AlertSeverity severity, String summary, String description,
			String runbookUrl, Map<String, String> labels, Map<String, String> annotations) {

		public Alert {
			labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
			annotations = Collections.unmodifiableMap(new LinkedHashMap<>(annotations));
		}

	}

	/**
	 * How the metrics linter judges the scrape.
	 *
	 * @param allowedLabels label names that look unbounded but are bounded in this
	 * controller
	 * @param frameworkPrefixes name prefixes of framework metrics besides the usual ones,
	 * whose findings never fail start-up
	 * @param mode what a finding does at start-up
	 */
	public record Lint(Set<String> allowedLabels, List<String> frameworkPrefixes, LintProperties.Mode mode) {

	}

}
