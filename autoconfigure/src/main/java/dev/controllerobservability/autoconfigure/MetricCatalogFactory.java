package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.PerObject;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

/**
 * Turns {@code controller.observability.metrics.*} into checked {@link MetricDefinition}s
 * when the settings are resolved, and builds the {@link MetricCatalog} from them and the
 * {@link MetricDefinition} beans. Every catalog mistake becomes an
 * {@link InvalidObservabilityPropertyException} that names
 * {@code controller.observability.metrics.<name>.<field>}.
 */
final class MetricCatalogFactory {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".metrics.";

	private MetricCatalogFactory() {
	}

	/**
	 * The declared metrics of the configuration, each checked and checked against the
	 * others.
	 * @param namespace the controller's namespace
	 * @param configured the bound declarations by name
	 * @return the definitions, in configuration order
	 */
	static List<MetricDefinition> definitions(String namespace, Map<String, MetricProperties> configured) {
		List<MetricDefinition> definitions = new ArrayList<>();
		try {
			configured.forEach((name, metric) -> definitions.add(definition(name, metric)));
		}
		catch (InvalidMetricDefinitionException ex) {
			throw invalid(ex, configured.keySet());
		}
		catalog(namespace, definitions, configured.keySet());
		return List.copyOf(definitions);
	}

	/**
	 * The catalog of the configured metrics and the {@link MetricDefinition} beans.
	 * @param namespace the controller's namespace
	 * @param configured the definitions from the settings
	 * @param beans the definitions declared as beans
	 * @return the catalog
	 */
	static MetricCatalog create(String namespace, List<MetricDefinition> configured, List<MetricDefinition> beans) {
		List<MetricDefinition> definitions = new ArrayList<>(configured);
		definitions.addAll(beans);
		return catalog(namespace, definitions,
				configured.stream().map(MetricDefinition::name).collect(Collectors.toSet()));
	}

	private static MetricCatalog catalog(String namespace, List<MetricDefinition> definitions, Set<String> configured) {
		try {
			return MetricCatalog.of(namespace, definitions);
		}
		catch (InvalidMetricDefinitionException ex) {
			throw invalid(ex, configured);
		}
	}

	/**
	 * The property exception of a declared metric the core refused.
	 * @param refused the refusal
	 * @param configured the names of the metrics declared as properties, the others being
	 * {@link MetricDefinition} beans
	 * @return the exception naming
	 * {@code controller.observability.metrics.<name>.<field>}
	 */
	static InvalidObservabilityPropertyException invalid(InvalidMetricDefinitionException refused,
			Set<String> configured) {
		String source = configured.contains(refused.getMetric()) ? "" : " (declared as a MetricDefinition bean)";
		return InvalidObservabilityPropertyException.of(PREFIX + refused.getMetric(), refused, source);
	}

	private static MetricDefinition definition(String name, MetricProperties metric) {
		if (metric.type() == null) {
			throw new InvalidObservabilityPropertyException(PREFIX + name + ".type", null, "every metric needs a type",
					"Set it to one of counter, gauge, histogram, summary or info");
		}
		return new MetricDefinition(name, metric.type(), metric.help(), metric.labels(), metric.buckets(),
				metric.unit(), metric.stability(), metric.deprecatedVersion(), metric.replaces(), metric.renamedIn(),
				metric.labelValues(), PerObject.of(name, metric.perObject(), metric.objectKind(), metric.timeToLive()));
	}

}
