package dev.controllerobservability.live;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.controllerobservability.dashboard.GrafanaDashboard;
import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.rules.ScrapeTarget;

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

	private final DeclaredMetrics declared;

	private final RuleSet rules;

	private final MetricsLinter linter;

	private final String applicationName;

	private final Map<String, String> prometheusRuleLabels;

	private final String window;

	private final ScrapeTarget scrapeTarget;

	/**
	 * Creates the artefacts.
	 * @param declared what the controller declares: its operations and catalog
	 * @param rules the rule group
	 * @param linter tells framework metrics from the controller's
	 * @param applicationName the name the manifests and the dashboard carry
	 * @param prometheusRuleLabels labels of the {@code PrometheusRule}
	 * @param window range of the dashboard's rate windows, such as {@code 5m}
	 * @param scrapeTarget where and how often Prometheus scrapes the controller
	 */
	public ControllerArtefacts(DeclaredMetrics declared, RuleSet rules, MetricsLinter linter, String applicationName,
			Map<String, String> prometheusRuleLabels, String window, ScrapeTarget scrapeTarget) {
		this.declared = declared;
		this.rules = rules;
		this.linter = linter;
		this.applicationName = applicationName;
		this.prometheusRuleLabels = prometheusRuleLabels;
		this.window = window;
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
		return this.rules.toPrometheusRule(this.applicationName + "-rules", this.prometheusRuleLabels);
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
		List<String> commonTags = this.declared.commonTagKeys();
		List<ReferenceEntry> catalog = MetricsReference
			.of(new Exposition(List.of(), List.of()), this.declared.metrics().declaredFamilies(commonTags),
					this.linter::isFramework)
			.entries()
			.stream()
			.filter((entry) -> entry.replacedBy() == null && !entry.name().endsWith("_max"))
			.toList();
		List<OperationDescriptor> operations = this.declared.operationNames()
			.stream()
			.map(this.declared.operations()::describe)
			.toList();
		return GrafanaDashboard.builder(this.applicationName, this.declared.namespace())
			.operations(operations)
			.catalog(catalog)
			.hiddenLabels(Set.copyOf(commonTags))
			.disabledMetrics(this.declared.disabledMetrics())
			.window(this.window)
			.webhooks(this.rules.alerts().stream().anyMatch((alert) -> alert.name().startsWith("Webhook")))
			.leaderElection(this.rules.alerts().stream().anyMatch((alert) -> alert.name().startsWith("LeaderElection")))
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
