package dev.controllerobservability.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.autoconfigure.strictness.ConfigurationStrictness;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;
import dev.controllerobservability.internal.rules.RuleSettings;
import dev.controllerobservability.internal.settings.CheckedSettings;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.settings.SettingValues;
import dev.controllerobservability.operations.OperationDefinition;

/**
 * {@link ControllerObservabilityProperties} resolved and validated once at start-up: the
 * core's settings, checked by the rules the plain Java builder applies
 * ({@link SettingValues#check}), plus what only the Spring Boot path has. A bad value
 * stops start-up with an {@link InvalidObservabilityPropertyException} naming the
 * property.
 *
 * @param core the core's settings, naming settings as properties, from which the core
 * wires its parts
 * @param directRecording whether operations record straight into their meters when only
 * meter handlers would see their observations
 * @param backend where operation durations are recorded
 * @param rules the rules, alerts and scrape settings the generated artefacts come from
 * @param lint how the metrics linter judges the scrape
 */
public record ControllerObservabilitySettings(CheckedSettings core, boolean directRecording,
		OperationsProperties.Backend backend, RuleSettings rules, Lint lint) {

	private static final String REGISTRY_TAGS = "management.metrics.tags";

	private static final Set<String> PROMETHEUS_RESERVED_LABELS = Set.of("le", "quantile");

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
			Environment environment, @Nullable String buildVersion) {
		ConfigurationStrictness.Checked checked = ConfigurationStrictness.check(environment);
		checkRegistryTags(environment);
		try {
			OperationsProperties operations = properties.operations();
			String namespace = (properties.namespace() != null) ? properties.namespace()
					: SettingValues.derivedNamespace(environment.getProperty("spring.application.name"));
			CheckedSettings core = new SettingValues(namespace, properties.commonTags(), properties.durationBuckets(),
					properties.meterPrefixes(), properties.errorLogInterval(), operations.tags(),
					definitions(operations, checked).entrySet(), operations.maxOperations(), properties.version(),
					buildVersion, properties.showHiddenMetricsForVersion(), properties.disabledMetrics(),
					properties.labelAllowList(), properties.maxLabelValues(), properties.maxLabelValueLength(),
					properties.maxSeriesPerMetric())
				.check((checkedNamespace) -> MetricCatalogFactory.definitions(checkedNamespace, properties.metrics()),
						SettingNames.PROPERTIES);
			LintProperties lint = properties.lint();
			return new ControllerObservabilitySettings(core, operations.directRecording(), operations.backend(),
					RulesResolver.resolve(properties, core.namespace(), environment),
					new Lint(Set.copyOf(lint.allowedLabels()), List.copyOf(lint.frameworkPrefixes()), lint.mode()));
		}
		catch (InvalidSettingException ex) {
			throw InvalidObservabilityPropertyException.of(ex);
		}
	}

	/**
	 * The operations as configured; {@code bind: {}} declares one too, though YAML leaves
	 * no property for it.
	 */
	private static Map<String, OperationDefinition> definitions(OperationsProperties properties,
			ConfigurationStrictness.Checked checked) {
		Map<String, OperationDefinitionProperties> configured = new LinkedHashMap<>(properties.definitions());
		checked.emptyOperationDefinitions()
			.forEach((name) -> configured.putIfAbsent(name, OperationDefinitionProperties.defaults()));
		Map<String, OperationDefinition> definitions = new LinkedHashMap<>();
		configured.forEach((name, definition) -> definitions.put(name, new OperationDefinition(definition.subsystem(),
				definition.description(), definition.buckets(), definition.stability())));
		return definitions;
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
