package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.stability.StabilityLevel;

/**
 * Builds the {@link MetricCatalog} from {@code controller.observability.metrics.*} and
 * {@link MetricDefinition} beans, turning every catalog mistake into an
 * {@link InvalidObservabilityPropertyException} that names
 * {@code controller.observability.metrics.<name>.<field>}.
 */
final class MetricCatalogFactory {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".metrics.";

	private MetricCatalogFactory() {
	}

	static MetricCatalog create(String namespace, Map<String, ControllerObservabilityProperties.Metric> configured,
			List<MetricDefinition> beans) {
		List<MetricDefinition> definitions = new ArrayList<>();
		configured.forEach((name, metric) -> definitions.add(definition(name, metric)));
		definitions.addAll(beans);
		try {
			return MetricCatalog.of(namespace, definitions);
		}
		catch (InvalidMetricDefinitionException ex) {
			String source = configured.containsKey(ex.getMetric()) ? "" : " (declared as a MetricDefinition bean)";
			throw InvalidObservabilityPropertyException.of(PREFIX + ex.getMetric(), ex, source);
		}
	}

	private static MetricDefinition definition(String name, ControllerObservabilityProperties.Metric metric) {
		MetricType type = MetricType.parse(metric.getType());
		if (type == null) {
			throw new InvalidObservabilityPropertyException(PREFIX + name + ".type", metric.getType(),
					(metric.getType() == null) ? "every metric needs a type" : "the type is unknown",
					"Set it to one of counter, gauge, histogram, summary or info");
		}
		StabilityLevel stability = StabilityLevels.parse(PREFIX + name + ".stability", metric.getStability());
		return new MetricDefinition(name, type, metric.getHelp(), metric.getLabels(), metric.getBuckets(),
				metric.getUnit(), stability, metric.getDeprecatedVersion(), metric.getReplaces(), metric.getRenamedIn(),
				metric.getLabelValues());
	}

}
