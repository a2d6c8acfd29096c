package dev.controllerobservability.autoconfigure;

import java.util.List;
import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.settings.SettingReferences;
import dev.controllerobservability.internal.settings.UnresolvedReferences;
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
 * property and the closest known name, as the core's {@link UnresolvedReferences} finds
 * them.</li>
 * </ul>
 */
class ConfigurationReferences implements ApplicationListener<ApplicationReadyEvent> {

	private static final Logger logger = LoggerFactory.getLogger(ConfigurationReferences.class);

	private final ControllerObservabilitySettings settings;

	private final MeterRegistry registry;

	private final ControllerMeterFilter meterFilter;

	private final ObjectProvider<DirectPrometheusFamilies> directFamilies;

	private final SettingReferences references;

	private final UnresolvedReferences unresolved;

	ConfigurationReferences(ControllerObservabilitySettings settings, MetricCatalog catalog, MeterRegistry registry,
			ControllerMeterFilter meterFilter, ObjectProvider<DirectPrometheusFamilies> directFamilies) {
		this.settings = settings;
		this.registry = registry;
		this.meterFilter = meterFilter;
		this.directFamilies = directFamilies;
		this.references = new SettingReferences(settings.core().namespace(), settings.core().operationTags(),
				settings.core().operationDefinitions(), settings.rules().operations().keySet(), catalog,
				SettingNames.PROPERTIES);
		this.unresolved = new UnresolvedReferences(this.references, catalog, settings.core().operationDefinitions(),
				settings.rules().operations().keySet(), settings.core().disabledMetrics(),
				settings.core().labelAllowList().keySet(), SettingNames.PROPERTIES);
	}

	/**
	 * Refuses what the starter knows to be wrong.
	 * @throws InvalidObservabilityPropertyException for the first mistake
	 */
	void check() {
		try {
			this.references.check(this.settings.core().commonTags(), this.settings.core().disabledMetrics(),
					this.settings.core().labelAllowList());
		}
		catch (InvalidSettingException ex) {
			throw InvalidObservabilityPropertyException.of(ex);
		}
	}

	/**
	 * Warns, once the application is ready, about names that refer to nothing yet.
	 */
	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Set<String> denied = (this.meterFilter != null) ? this.meterFilter.deniedMetrics() : Set.of();
		List<String> direct = this.directFamilies.orderedStream()
			.flatMap((families) -> families.names().stream())
			.toList();
		for (UnresolvedReferences.Warning warning : this.unresolved.find(this.registry, denied, direct)) {
			logger.warn("{}.{}={}: {} by the time the application is ready{}; if it comes later, ignore this",
					ControllerObservabilityProperties.PREFIX, warning.setting(), warning.value(), warning.reason(),
					(warning.closest() != null) ? " (did you mean " + warning.closest() + "?)" : "");
		}
	}

}
