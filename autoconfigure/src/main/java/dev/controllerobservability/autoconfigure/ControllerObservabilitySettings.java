package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Tags;

import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties.Definition;
import dev.controllerobservability.metrics.MetricConventions;
import dev.controllerobservability.metrics.MetricNames;
import dev.controllerobservability.operations.OperationDefinition;

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
 * @param operationTags label keys of every operation metric
 * @param definitions per-operation settings keyed by snake_case operation name
 */
public record ControllerObservabilitySettings(String namespace, Tags commonTags, List<Double> durationBuckets,
		List<String> meterPrefixes, Duration errorLogInterval, List<String> operationTags,
		Map<String, OperationDefinition> definitions) {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private static final Pattern METER_PREFIX = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");

	/**
	 * Resolves and validates the properties.
	 * @param properties the bound properties
	 * @param environment for {@code spring.application.name}
	 * @return the settings
	 * @throws InvalidObservabilityPropertyException for the first invalid value
	 */
	public static ControllerObservabilitySettings resolve(ControllerObservabilityProperties properties,
			Environment environment) {
		String namespace = namespace(properties.getNamespace(), environment.getProperty("spring.application.name"));
		Tags commonTags = commonTags(properties.getCommonTags());
		List<Double> buckets = buckets("duration-buckets", properties.getDurationBuckets());
		List<String> meterPrefixes = meterPrefixes(properties.getMeterPrefixes());
		Duration errorLogInterval = properties.getErrorLogInterval();
		if (errorLogInterval == null || errorLogInterval.isNegative()) {
			throw new InvalidObservabilityPropertyException(PREFIX + "error-log-interval", errorLogInterval,
					"the interval must be zero or positive", "Set it to a duration such as 1m or 30s");
		}
		List<String> operationTags = labelKeys("operations.tags", properties.getOperations().getTags());
		Map<String, OperationDefinition> definitions = definitions(properties.getOperations().getDefinitions());
		return new ControllerObservabilitySettings(namespace, commonTags, buckets, meterPrefixes, errorLogInterval,
				operationTags, definitions);
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
		if (buckets == null || buckets.isEmpty()) {
			throw new InvalidObservabilityPropertyException(PREFIX + property, buckets,
					"at least one bucket boundary is needed", "List boundaries in seconds, such as [0.1, 1, 10]");
		}
		for (int i = 0; i < buckets.size(); i++) {
			Double bucket = buckets.get(i);
			String element = PREFIX + property + "[" + i + "]";
			if (bucket == null || !Double.isFinite(bucket) || bucket <= 0) {
				throw new InvalidObservabilityPropertyException(element, bucket,
						"bucket boundaries are durations in seconds and must be positive and finite",
						"Remove it or use a positive number of seconds such as 0.005");
			}
			if (i > 0 && bucket.equals(buckets.get(i - 1))) {
				throw new InvalidObservabilityPropertyException(element, bucket,
						"the boundary " + bucket + " is listed twice", "Remove the duplicate boundary");
			}
			if (i > 0 && bucket < buckets.get(i - 1)) {
				throw new InvalidObservabilityPropertyException(element, bucket,
						"bucket boundaries must be strictly increasing, but " + bucket + " follows "
								+ buckets.get(i - 1),
						"List the boundaries in ascending order: " + buckets.stream().sorted().distinct().toList());
			}
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
		}
		return List.copyOf(prefixes);
	}

	private static Map<String, OperationDefinition> definitions(Map<String, Definition> configured) {
		Map<String, OperationDefinition> definitions = new LinkedHashMap<>();
		Map<String, String> configuredNames = new LinkedHashMap<>();
		for (Map.Entry<String, Definition> entry : configured.entrySet()) {
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
		return Map.copyOf(definitions);
	}

	private static OperationDefinition definition(String property, Definition definition) {
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
		return new OperationDefinition(subsystem, description, buckets);
	}

	private static String suggestion(String value, String fallback) {
		String snake = MetricNames.toSnakeCase(value);
		return MetricNames.isSnakeCase(snake) ? snake : fallback;
	}

}
