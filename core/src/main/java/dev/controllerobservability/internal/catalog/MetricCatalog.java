package dev.controllerobservability.internal.catalog;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.controllerobservability.catalog.InvalidMetricDefinitionException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.stability.Version;

/**
 * Every declared metric of a controller, validated: names, help, labels, buckets, units,
 * versions and renames. Built once at start-up from configuration and
 * {@link MetricDefinition} beans alike. The names it exposes are the
 * {@link NamingPolicy}'s: the catalog only turns a declared name into the stem the policy
 * puts under the namespace. Example:
 *
 * <pre>{@code
 * MetricCatalog catalog = MetricCatalog.of("karpenter", List.of(
 *         MetricDefinition.counter("nodes_launched_total").help("Nodes launched.").labels("provisioner").build()));
 * catalog.exposedName("nodes_launched_total"); // karpenter_nodes_launched_total
 * }</pre>
 */
public final class MetricCatalog {

	private final NamingPolicy naming;

	private final Map<String, MetricDefinition> definitions;

	private MetricCatalog(NamingPolicy naming, Map<String, MetricDefinition> definitions) {
		this.naming = naming;
		this.definitions = definitions;
	}

	/**
	 * Validates definitions into a catalog.
	 * @param namespace the controller's namespace
	 * @param definitions the declared metrics
	 * @return the catalog
	 * @throws InvalidMetricDefinitionException for the first invalid definition
	 */
	public static MetricCatalog of(String namespace, Collection<MetricDefinition> definitions) {
		// Names are all the catalog asks of the policy, and they depend on the namespace
		// alone.
		NamingPolicy naming = NamingPolicy.builder(namespace).build();
		Map<String, MetricDefinition> byName = new LinkedHashMap<>();
		for (MetricDefinition definition : definitions) {
			MetricDefinitionValidator.validate(naming, definition);
			if (byName.putIfAbsent(definition.name(), definition) != null) {
				throw new InvalidMetricDefinitionException(definition.name(), null, definition.name(),
						"the metric is declared twice", "Keep one declaration");
			}
		}
		Map<String, String> replacedBy = new LinkedHashMap<>();
		for (MetricDefinition definition : byName.values()) {
			checkReplaces(naming, definition, byName, replacedBy);
		}
		return new MetricCatalog(naming, Map.copyOf(byName));
	}

	private static void checkReplaces(NamingPolicy naming, MetricDefinition definition,
			Map<String, MetricDefinition> declared, Map<String, String> replacedBy) {
		String old = definition.replaces();
		if (old == null) {
			if (definition.renamedIn() != null) {
				throw new InvalidMetricDefinitionException(definition.name(), "renamed-in", definition.renamedIn(),
						"renamed-in only means something together with replaces",
						"Set replaces to the old name, or remove renamed-in");
			}
			return;
		}
		if (old.equals(definition.name())) {
			throw new InvalidMetricDefinitionException(definition.name(), "replaces", old,
					"a metric cannot replace itself", "Set replaces to the metric's old name");
		}
		if (declared.containsKey(old)) {
			throw new InvalidMetricDefinitionException(definition.name(), "replaces", old,
					"'" + old + "' is still declared as a metric of its own, so both would be exposed under that name",
					"Remove the declaration of " + old
							+ ", or deprecate it with deprecated-version instead of replacing it");
		}
		String previous = replacedBy.putIfAbsent(old, definition.name());
		if (previous != null) {
			throw new InvalidMetricDefinitionException(definition.name(), "replaces", old,
					"'" + old + "' is already replaced by " + previous, "Keep one replacement");
		}
		MetricDefinitionValidator.checkName(naming, definition, old, "replaces");
		if (definition.renamedIn() == null) {
			throw new InvalidMetricDefinitionException(definition.name(), "renamed-in", null,
					"the old name stays exposed for the deprecation window of the metric's stability level, counted "
							+ "from the version that renamed it",
					"Set renamed-in to the version that introduced " + definition.name() + ", such as 1.4.0");
		}
		MetricDefinitionValidator.version(definition.name(), "renamed-in", definition.renamedIn());
	}

	/**
	 * The controller's namespace.
	 * @return the namespace
	 */
	public String namespace() {
		return this.naming.namespace();
	}

	/**
	 * A declared metric.
	 * @param name the declared name
	 * @return its definition, or {@code null} if undeclared
	 */
	public MetricDefinition find(String name) {
		return this.definitions.get(name);
	}

	/**
	 * Every declared metric.
	 * @return the definitions, in no particular order
	 */
	public Collection<MetricDefinition> definitions() {
		return this.definitions.values();
	}

	/**
	 * Every declared name, sorted.
	 * @return the names
	 */
	public List<String> names() {
		return this.definitions.keySet().stream().sorted().toList();
	}

	/**
	 * The name Prometheus shows for a declared name.
	 * @param name a declared name such as {@code nodes_launched_total}
	 * @return the exposed name, such as {@code karpenter_nodes_launched_total}
	 */
	public String exposedName(String name) {
		return this.naming.exposedName(name);
	}

	/**
	 * The Micrometer meter name that Prometheus exposes as {@code exposedName(name)}:
	 * counters drop {@code _total} and info metrics end with {@code .info}, since the
	 * Prometheus registry adds those suffixes itself.
	 * @param name a declared (or replaced) name
	 * @param type its type
	 * @return the meter name
	 */
	public String meterName(String name, MetricType type) {
		String stem = switch (type) {
			case COUNTER -> name.substring(0, name.length() - "_total".length());
			case INFO -> name.substring(0, name.length() - "_info".length()) + ".info";
			default -> name;
		};
		return this.naming.meterName(stem);
	}

	/**
	 * The deprecated version of a declared metric, parsed.
	 * @param definition the metric
	 * @return the version, or {@code null}
	 */
	public static Version deprecatedVersion(MetricDefinition definition) {
		return MetricDefinitionValidator.version(definition.name(), "deprecated-version",
				definition.deprecatedVersion());
	}

	/**
	 * The version that renamed a metric, parsed.
	 * @param definition the metric
	 * @return the version, or {@code null} without {@code replaces}
	 */
	public static Version renamedIn(MetricDefinition definition) {
		return MetricDefinitionValidator.version(definition.name(), "renamed-in", definition.renamedIn());
	}

}
