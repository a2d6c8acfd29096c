package dev.controllerobservability.internal.settings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.metrics.PrometheusNames;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * The names in settings that may still come to exist (a meter registered later, an
 * operation called later) but do not yet: {@link SettingReferences} refuses what is known
 * to be wrong before anything is registered, this finds what is only doubtful once the
 * application runs, for a warning naming the setting and the closest known name.
 */
public final class UnresolvedReferences {

	private static final String DURATION_FAMILY_SUFFIX = "_" + MetricConventions.DURATION_SUFFIX + "_seconds";

	private static final String IN_FLIGHT_FAMILY_SUFFIX = "_" + MetricConventions.IN_FLIGHT_SUFFIX;

	private final SettingReferences references;

	private final String namespace;

	private final Set<String> definedOperations;

	private final Collection<String> ruleOperations;

	private final List<String> disabledMetrics;

	private final List<String> allowListMetrics;

	private final SettingNames names;

	/** Exposed names of declared metrics and their old names. */
	private final Set<String> declaredMetrics = new TreeSet<>();

	/**
	 * Gathers the names to look for.
	 * @param references the cross-checks, with the operations known before their first
	 * call
	 * @param catalog the checked catalog
	 * @param definitions the checked per-operation settings by snake_case name
	 * @param ruleOperations the operations given rules, as configured
	 * @param disabledMetrics the checked exposed names of metrics never registered
	 * @param allowListMetrics the metrics of the checked label allow-lists
	 * @param names how messages name the settings they mention
	 */
	public UnresolvedReferences(SettingReferences references, MetricCatalog catalog,
			Map<String, OperationDefinition> definitions, Collection<String> ruleOperations,
			List<String> disabledMetrics, Collection<String> allowListMetrics, SettingNames names) {
		this.references = references;
		this.namespace = catalog.namespace();
		this.definedOperations = Set.copyOf(definitions.keySet());
		this.ruleOperations = List.copyOf(ruleOperations);
		this.disabledMetrics = List.copyOf(disabledMetrics);
		this.allowListMetrics = List.copyOf(allowListMetrics);
		this.names = names;
		for (MetricDefinition definition : catalog.definitions()) {
			this.declaredMetrics.add(catalog.exposedName(definition.name()));
			if (definition.replaces() != null) {
				this.declaredMetrics.add(catalog.exposedName(definition.replaces()));
			}
		}
	}

	/**
	 * The names that refer to nothing yet.
	 * @param registry the registry, whose meters exist
	 * @param denied the exposed names the meter filter denied
	 * @param otherFamilies exposed names of families registered elsewhere, such as
	 * Prometheus histograms recorded straight into the Prometheus registry
	 * @return one warning per name, in the order of the settings
	 */
	public List<Warning> find(MeterRegistry registry, Set<String> denied, Collection<String> otherFamilies) {
		Set<String> registered = new TreeSet<>();
		registry.getMeters().forEach((meter) -> registered.add(PrometheusNames.familyName(meter.getId())));
		Set<String> known = new TreeSet<>(registered);
		Set<String> called = calledOperationFamilies(registered, denied);
		known.addAll(called);
		known.addAll(this.declaredMetrics);
		known.addAll(otherFamilies);
		this.references.operations().values().forEach((operation) -> {
			known.add(operation.familyName());
			known.add(operation.inFlightFamilyName());
		});
		List<Warning> warnings = new ArrayList<>();
		for (int i = 0; i < this.disabledMetrics.size(); i++) {
			String name = this.disabledMetrics.get(i);
			if (!denied.contains(name) && !known.contains(name)) {
				warnings.add(new Warning("disabled-metrics[" + i + "]", name,
						"no metric of this name has been registered or declared", ClosestName.of(name, known)));
			}
		}
		for (String metric : this.allowListMetrics) {
			if (this.references.isOperationFamily(metric) && !known.contains(metric)) {
				warnings.add(new Warning("label-allow-list." + metric, metric,
						"no operation with this histogram has been declared or called",
						ClosestName.of(metric, this.references.allowListKeys())));
			}
		}
		for (String operation : this.ruleOperations) {
			OperationDescriptor descriptor = this.references.operations().get(MetricNames.toSnakeCase(operation));
			if (descriptor != null && !this.definedOperations.contains(descriptor.operation())
					&& !called.contains(descriptor.familyName())) {
				warnings.add(new Warning("rules.operations." + operation, operation,
						"no operation of this name is declared under " + this.names.of(Setting.OPERATION_DEFINITIONS)
								+ " or has been called",
						ClosestName.of(descriptor.operation(), this.definedOperations)));
			}
		}
		return warnings;
	}

	/**
	 * The duration histograms of the operations called so far. Each call registers the
	 * operation's in-flight gauge with Micrometer, whichever backend records its
	 * durations, or has it denied when it is disabled.
	 */
	private Set<String> calledOperationFamilies(Set<String> registered, Set<String> denied) {
		String prefix = this.namespace + "_";
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

	/**
	 * A name that refers to nothing yet.
	 *
	 * @param setting the setting below {@code controller.observability}, such as
	 * {@code disabled-metrics[0]}
	 * @param value the name
	 * @param reason why it refers to nothing
	 * @param closest the closest known name, or {@code null}
	 */
	public record Warning(String setting, String value, String reason, @Nullable String closest) {

	}

}
