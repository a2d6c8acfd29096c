package dev.controllerobservability.autoconfigure.rules;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Tag;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.dashboard.GrafanaDashboard;
import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.rules.ScrapeTarget;
import dev.controllerobservability.autoconfigure.ControllerObservabilitySettings;

/**
 * The deployable artefacts of the running controller: the Prometheus rules file, the
 * {@code PrometheusRule}, {@code ServiceMonitor} and {@code PodMonitor} manifests and the
 * Grafana dashboard, all generated from the configuration. Write them for deployment:
 *
 * <pre>{@code
 * Files.writeString(dir.resolve("rules.yaml"), artefacts.rulesFile());
 * Files.writeString(dir.resolve("dashboard.json"), artefacts.dashboard());
 * }</pre>
 */
public class ControllerArtefacts {

	private final RuleSet rules;

	private final ControllerObservabilitySettings settings;

	private final ControllerOperations operations;

	private final ControllerMetrics metrics;

	private final MetricsLinter linter;

	private final String applicationName;

	private final ScrapeTarget scrapeTarget;

	ControllerArtefacts(RuleSet rules, ControllerObservabilitySettings settings, ControllerOperations operations,
			ControllerMetrics metrics, MetricsLinter linter, String applicationName, ScrapeTarget scrapeTarget) {
		this.rules = rules;
		this.settings = settings;
		this.operations = operations;
		this.metrics = metrics;
		this.linter = linter;
		this.applicationName = applicationName;
		this.scrapeTarget = scrapeTarget;
	}

	/**
	 * The rule group.
	 * @return the rules
	 */
	public RuleSet rules() {
		return this.rules;
	}

	/**
	 * The Prometheus rules file.
	 * @return the YAML
	 */
	public String rulesFile() {
		return this.rules.toRulesFile();
	}

	/**
	 * The {@code monitoring.coreos.com/v1} {@code PrometheusRule} manifest.
	 * @return the YAML
	 */
	public String prometheusRule() {
		return this.rules.toPrometheusRule(this.applicationName + "-rules",
				this.settings.rules().prometheusRuleLabels());
	}

	/**
	 * The {@code monitoring.coreos.com/v1} {@code ServiceMonitor} that has the Prometheus
	 * Operator scrape the controller through its Service.
	 * @return the YAML
	 */
	public String serviceMonitor() {
		return this.scrapeTarget.toServiceMonitor();
	}

	/**
	 * The {@code monitoring.coreos.com/v1} {@code PodMonitor} that has the Prometheus
	 * Operator scrape the controller's pods directly.
	 * @return the YAML
	 */
	public String podMonitor() {
		return this.scrapeTarget.toPodMonitor();
	}

	/**
	 * The Grafana dashboard of the declared operations and the catalog.
	 * @return the dashboard
	 */
	public GrafanaDashboard dashboard() {
		List<String> commonTags = this.settings.commonTags().stream().map(Tag::getKey).toList();
		List<ReferenceEntry> catalog = MetricsReference
			.of(new Exposition(List.of(), List.of()), this.metrics.declaredFamilies(commonTags),
					this.linter::isFramework)
			.entries()
			.stream()
			.filter((entry) -> entry.replacedBy() == null && !entry.name().endsWith("_max"))
			.toList();
		List<OperationDescriptor> operations = RuleSetFactory.operationNames(this.settings)
			.stream()
			.map(this.operations::describe)
			.toList();
		return GrafanaDashboard.builder(this.applicationName, this.settings.namespace())
			.operations(operations)
			.catalog(catalog)
			.hiddenLabels(Set.copyOf(commonTags))
			.disabledMetrics(this.settings.disabledMetrics())
			.window(this.settings.rules().window())
			.build();
	}

	/**
	 * The artefacts by endpoint format name.
	 * @return {@code prometheus}, {@code prometheusrule}, {@code servicemonitor},
	 * {@code podmonitor} and {@code dashboard}
	 */
	public Map<String, Supplier<String>> byFormat() {
		return Map.of("prometheus", this::rulesFile, "prometheusrule", this::prometheusRule, "servicemonitor",
				this::serviceMonitor, "podmonitor", this::podMonitor, "dashboard", () -> dashboard().toJson());
	}

}
