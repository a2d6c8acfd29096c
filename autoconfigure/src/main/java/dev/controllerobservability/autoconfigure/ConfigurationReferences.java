package dev.controllerobservability.autoconfigure;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.metrics.PrometheusNames;
import dev.controllerobservability.internal.settings.ClosestName;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.settings.SettingReferences;
import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

/**
 * Checks the properties that refer to metrics and operations by name
 * ({@code disabled-metrics}, {@code label-allow-list}, {@code rules.operations}) and the
 * catalog against the operations:
 * <ul>
 * <li>at start-up, by the core's {@link SettingReferences} that the plain Java builder
 * calls too, with the operations given rules counted as known;</li>
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

	private final MeterRegistry registry;

	private final ControllerMeterFilter meterFilter;

	private final ObjectProvider<DirectPrometheusFamilies> directFamilies;

	private final SettingReferences references;

	/** Exposed names of declared metrics and their old names. */
	private final Set<String> declaredMetrics = new TreeSet<>();

	ConfigurationReferences(ControllerObservabilitySettings settings, MetricCatalog catalog, MeterRegistry registry,
			ControllerMeterFilter meterFilter, ObjectProvider<DirectPrometheusFamilies> directFamilies) {
		this.settings = settings;
		this.registry = registry;
		this.meterFilter = meterFilter;
		this.directFamilies = directFamilies;
		this.references = new SettingReferences(settings.namespace(), settings.operations().tags(),
				settings.operations().definitions(), settings.rules().operations().keySet(), catalog,
				SettingNames.PROPERTIES);
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
		try {
			this.references.check(this.settings.commonTags(), this.settings.disabledMetrics(),
					this.settings.labelAllowList());
		}
		catch (InvalidSettingException ex) {
			throw InvalidObservabilityPropertyException.of(ex);
		}
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
		this.references.operations().values().forEach((operation) -> {
			known.add(operation.familyName());
			known.add(operation.inFlightFamilyName());
		});
		for (int i = 0; i < disabled.size(); i++) {
			String name = disabled.get(i);
			if (!denied.contains(name) && !known.contains(name)) {
				warn("disabled-metrics[" + i + "]", name, "no metric of this name has been registered or declared",
						ClosestName.of(name, known));
			}
		}
		for (String metric : this.settings.labelAllowList().keySet()) {
			if (this.references.isOperationFamily(metric) && !known.contains(metric)) {
				warn("label-allow-list." + metric, metric,
						"no operation with this histogram has been declared or " + "called",
						ClosestName.of(metric, this.references.allowListKeys()));
			}
		}
		for (String operation : this.settings.rules().operations().keySet()) {
			OperationDescriptor descriptor = this.references.operations().get(MetricNames.toSnakeCase(operation));
			if (descriptor != null && !this.settings.operations().definitions().containsKey(descriptor.operation())
					&& !called.contains(descriptor.familyName())) {
				warn("rules.operations." + operation, operation,
						"no operation of this name is declared under " + PREFIX
								+ "operations.definitions or has been called",
						ClosestName.of(descriptor.operation(), this.settings.operations().definitions().keySet()));
			}
		}
	}

	private static void warn(String property, String value, String reason, String closest) {
		logger.warn("{}{}={}: {} by the time the application is ready{}; if it comes later, ignore this", PREFIX,
				property, value, reason, (closest != null) ? " (did you mean " + closest + "?)" : "");
	}

}
