package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.catalog.MetricType;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.PrometheusNames;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * Checks the properties that refer to metrics and operations by name
 * ({@code disabled-metrics}, {@code label-allow-list}, {@code rules.operations}) and the
 * catalog against the operations:
 * <ul>
 * <li>at start-up, what the starter knows is wrong stops it: a catalog metric exposed
 * under an operation's name, a disabled name that is a histogram's series rather than the
 * histogram, an allow-list for a metric the limits never see or a label the metric does
 * not have;</li>
 * <li>once the application is ready, a name that may still come to exist (a meter
 * registered later, an operation called later) but does not yet gets one WARN naming the
 * property and the closest known name.</li>
 * </ul>
 */
class ConfigurationReferences implements ApplicationListener<ApplicationReadyEvent> {

	private static final Logger logger = LoggerFactory.getLogger(ConfigurationReferences.class);

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX + ".";

	private static final String DURATION_FAMILY_SUFFIX = "_" + MetricConventions.DURATION_SUFFIX + "_seconds";

	private static final String IN_FLIGHT_FAMILY_SUFFIX = "_" + MetricConventions.IN_FLIGHT_SUFFIX;

	private final ControllerObservabilitySettings settings;

	private final MetricCatalog catalog;

	private final ControllerOperations operations;

	private final MeterRegistry registry;

	private final ControllerMeterFilter meterFilter;

	private final ObjectProvider<DirectPrometheusFamilies> directFamilies;

	private final Set<String> ruleOperations;

	/** Operations known before their first call, by snake_case name. */
	private final Map<String, OperationDescriptor> declared = new LinkedHashMap<>();

	/** Exposed names of declared metrics and their old names. */
	private final Set<String> declaredMetrics = new TreeSet<>();

	ConfigurationReferences(ControllerObservabilitySettings settings, MetricCatalog catalog,
			ControllerOperations operations, MeterRegistry registry, ControllerMeterFilter meterFilter,
			ObjectProvider<DirectPrometheusFamilies> directFamilies) {
		this.settings = settings;
		this.catalog = catalog;
		this.operations = operations;
		this.registry = registry;
		this.meterFilter = meterFilter;
		this.directFamilies = directFamilies;
		this.ruleOperations = settings.rules().operations().keySet();
		for (String name : RuleSetFactory.operationNames(settings)) {
			OperationDescriptor descriptor = describe(name);
			if (descriptor != null) {
				this.declared.put(name, descriptor);
			}
		}
		for (MetricDefinition definition : catalog.definitions()) {
			this.declaredMetrics.add(catalog.exposedName(definition.name()));
			if (definition.replaces() != null) {
				this.declaredMetrics.add(catalog.exposedName(definition.replaces()));
			}
		}
	}

	/**
	 * Refuses what the starter knows to be wrong.
	 * @throws InvalidObservabilityPropertyException for the first mistake
	 */
	void check() {
		checkOperationsDistinct();
		this.catalog.definitions().forEach(this::checkNotAnOperation);
		List<String> disabled = this.settings.disabledMetrics();
		for (int i = 0; i < disabled.size(); i++) {
			checkDisabledIsAFamily(i, disabled.get(i));
		}
		this.settings.labelAllowList().forEach(this::checkAllowList);
	}

	private void checkOperationsDistinct() {
		Map<String, OperationDescriptor> byFamily = new LinkedHashMap<>();
		for (OperationDescriptor operation : this.declared.values()) {
			OperationDescriptor other = byFamily.putIfAbsent(operation.familyName(), operation);
			if (other != null) {
				throw new InvalidObservabilityPropertyException(
						PREFIX + "operations.definitions." + operation.operation(), operation.operation(),
						"operations '" + other.operation() + "' and '" + operation.operation()
								+ "' are both recorded as " + operation.familyName()
								+ ", so their calls would be counted together under one help text",
						"Give one of them another name or a different " + PREFIX
								+ "operations.definitions.<operation>.subsystem");
			}
		}
	}

	private void checkNotAnOperation(MetricDefinition definition) {
		List<String> names = new ArrayList<>(List.of(definition.name()));
		if (definition.replaces() != null) {
			names.add(definition.replaces());
		}
		for (String name : names) {
			String exposed = this.catalog.exposedName(name);
			for (OperationDescriptor operation : this.declared.values()) {
				String role = (exposed.equals(operation.familyName())) ? "the duration histogram"
						: exposed.equals(operation.familyName() + "_max") ? "the maximum gauge"
								: exposed.equals(operation.inFlightFamilyName()) ? "the in-flight gauge" : null;
				if (role != null) {
					throw new InvalidObservabilityPropertyException(PREFIX + "metrics." + definition.name(),
							definition.name(),
							exposed + " is " + role + " of operation '" + operation.operation()
									+ "', and Prometheus keeps only one family of a name, so the operation's "
									+ "metrics would vanish",
							"Rename the metric" + otherSubsystem(operation));
				}
			}
		}
	}

	/**
	 * How the operation's names could move instead, unless a subsystem already moved
	 * them.
	 */
	private String otherSubsystem(OperationDescriptor operation) {
		OperationDefinition definition = this.settings.operations().definitions().get(operation.operation());
		if (definition != null && definition.subsystem() != null) {
			return ", or change the subsystem '" + definition.subsystem() + "' of operation '" + operation.operation()
					+ "' under " + PREFIX + "operations.definitions";
		}
		return ", or give operation '" + operation.operation() + "' a subsystem under " + PREFIX
				+ "operations.definitions";
	}

	private void checkDisabledIsAFamily(int index, String name) {
		for (String suffix : List.of("_bucket", "_count", "_sum")) {
			String family = name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : null;
			if (family != null && histogramFamilies().contains(family)) {
				throw new InvalidObservabilityPropertyException(PREFIX + "disabled-metrics[" + index + "]", name,
						name + " is a series of the histogram " + family
								+ ", and disabled-metrics takes whole metrics (families), so it matches nothing",
						"Did you mean " + family + "?");
			}
		}
	}

	private Set<String> histogramFamilies() {
		Set<String> families = new TreeSet<>();
		this.declared.values().forEach((operation) -> families.add(operation.familyName()));
		for (MetricDefinition definition : this.catalog.definitions()) {
			if (definition.type() == MetricType.HISTOGRAM || definition.type() == MetricType.SUMMARY) {
				families.add(this.catalog.exposedName(definition.name()));
			}
		}
		return families;
	}

	private void checkAllowList(String metric, Map<String, Set<String>> labels) {
		String property = PREFIX + "label-allow-list." + metric;
		MetricDefinition definition = findDeclared(metric);
		if (definition != null) {
			for (String label : labels.keySet()) {
				if (!definition.labels().contains(label)) {
					String closest = PropertyTree.closest(label, definition.labels());
					throw new InvalidObservabilityPropertyException(property + "." + label, label,
							metric + " has no label '" + label + "'; its labels are " + definition.labels(),
							((closest != null) ? "Did you mean '" + closest + "'? " : "")
									+ "Allow-list values of one of its labels");
				}
			}
			return;
		}
		if (isOperationFamily(metric)) {
			for (String label : labels.keySet()) {
				if (!this.settings.operations().tags().contains(label)) {
					throw new InvalidObservabilityPropertyException(property + "." + label, label,
							"operation metrics carry the labels " + this.settings.operations().tags() + " (" + PREFIX
									+ "operations.tags) besides result and error, and '" + label + "' is none of them",
							"Add " + label + " to " + PREFIX + "operations.tags, or allow-list one of those");
				}
			}
			return;
		}
		Set<String> keys = knownAllowListKeys();
		String closest = PropertyTree.closest(metric, keys);
		String example = keys.isEmpty() ? this.settings.namespace() + "_bind" + DURATION_FAMILY_SUFFIX
				: String.join(", ", keys.stream().limit(5).toList());
		throw new InvalidObservabilityPropertyException(property, metric,
				metric + " is neither a declared metric nor an operation's duration histogram, the only metrics "
						+ "allow-lists apply to, so the allow-list would never be used",
				((closest != null) ? "Did you mean " + closest + "? " : "")
						+ "Key the allow-list by the exposed name of a declared metric or of an operation's duration "
						+ "histogram, such as " + example);
	}

	private MetricDefinition findDeclared(String exposedName) {
		for (MetricDefinition definition : this.catalog.definitions()) {
			if (this.catalog.exposedName(definition.name()).equals(exposedName)) {
				return definition;
			}
		}
		return null;
	}

	/**
	 * The duration histograms of the operations called so far. Each call registers the
	 * operation's in-flight gauge with Micrometer, whichever backend records its
	 * durations, or has it denied when it is disabled.
	 */
	private Set<String> calledOperationFamilies(Set<String> registered, Set<String> denied) {
		String prefix = this.settings.namespace() + "_";
		Set<String> families = new TreeSet<>();
		Set<String> names = new TreeSet<>(registered);
		names.addAll(denied);
		for (String name : names) {
			if (name.startsWith(prefix) && name.endsWith(IN_FLIGHT_FAMILY_SUFFIX)) {
				families
					.add(name.substring(0, name.length() - IN_FLIGHT_FAMILY_SUFFIX.length()) + DURATION_FAMILY_SUFFIX);
			}
		}
		return families;
	}

	/** Whether a name has the form of an operation's histogram, called or not. */
	private boolean isOperationFamily(String name) {
		return name.startsWith(this.settings.namespace() + "_") && name.endsWith(DURATION_FAMILY_SUFFIX);
	}

	private Set<String> knownAllowListKeys() {
		Set<String> known = new TreeSet<>();
		this.catalog.definitions().forEach((definition) -> known.add(this.catalog.exposedName(definition.name())));
		this.declared.values().forEach((operation) -> known.add(operation.familyName()));
		return known;
	}

	/**
	 * Warns, once the application is ready, about names that refer to nothing yet.
	 */
	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Set<String> registered = new TreeSet<>();
		this.registry.getMeters().forEach((meter) -> registered.add(PrometheusNames.familyName(meter.getId())));
		List<String> disabled = this.settings.disabledMetrics();
		Set<String> denied = (this.meterFilter != null) ? this.meterFilter.deniedMetrics() : Set.of();
		Set<String> known = new TreeSet<>(registered);
		Set<String> called = calledOperationFamilies(registered, denied);
		known.addAll(called);
		known.addAll(this.declaredMetrics);
		this.directFamilies.orderedStream().forEach((families) -> known.addAll(families.names()));
		this.declared.values().forEach((operation) -> known.add(operation.familyName()));
		for (int i = 0; i < disabled.size(); i++) {
			String name = disabled.get(i);
			if (!denied.contains(name) && !known.contains(name)) {
				warn("disabled-metrics[" + i + "]", name, "no metric of this name has been registered or declared",
						PropertyTree.closest(name, known));
			}
		}
		for (String metric : this.settings.labelAllowList().keySet()) {
			if (isOperationFamily(metric) && !known.contains(metric)) {
				warn("label-allow-list." + metric, metric,
						"no operation with this histogram has been declared or " + "called",
						PropertyTree.closest(metric, knownAllowListKeys()));
			}
		}
		for (String operation : this.ruleOperations) {
			OperationDescriptor descriptor = describe(operation);
			if (descriptor != null && !this.settings.operations().definitions().containsKey(descriptor.operation())
					&& !called.contains(descriptor.familyName())) {
				warn("rules.operations." + operation, operation,
						"no operation of this name is declared under " + PREFIX
								+ "operations.definitions or has been called",
						PropertyTree.closest(descriptor.operation(),
								this.settings.operations().definitions().keySet()));
			}
		}
	}

	/** The operation's descriptor, or {@code null} for a name the rule set reports. */
	private OperationDescriptor describe(String operation) {
		try {
			return this.operations.describe(operation);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static void warn(String property, String value, String reason, String closest) {
		logger.warn("{}{}={}: {} by the time the application is ready{}; if it comes later, ignore this", PREFIX,
				property, value, reason, (closest != null) ? " (did you mean " + closest + "?)" : "");
	}

}
