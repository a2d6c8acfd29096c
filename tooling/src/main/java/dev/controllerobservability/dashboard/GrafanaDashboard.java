package dev.controllerobservability.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.controllerobservability.internal.json.IndentedJson;
import dev.controllerobservability.internal.metrics.ResourceStateNames;
import dev.controllerobservability.internal.rules.LeaderElectionRules;
import dev.controllerobservability.internal.rules.ResourceStateRules;
import dev.controllerobservability.internal.rules.WebhookRules;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * Generates a Grafana dashboard: per operation a rate panel by result, a latency heat
 * map, p50/p90/p99 and in-flight panels; a panel per catalog metric chosen by its type;
 * template variables for the Prometheus data source, the scrape job and the first
 * operation label (such as {@code provisioner}); with the resource state metrics in the
 * catalog, the number of resources not ready and of generations not reconciled, by kind,
 * as the built-in resource alerts count them; with {@link Builder#webhooks}, a row on the
 * webhooks. Example:
 *
 * <pre>{@code
 * String json = GrafanaDashboard.builder("Demo controller", "karpenter")
 *     .operations(descriptors).catalog(entries).build().toJson();
 * }</pre>
 */
public final class GrafanaDashboard {

	private static final int WIDTH = 24;

	private static final int HEIGHT = 8;

	private final Builder builder;

	private final List<Map<String, Object>> panels = new ArrayList<>();

	private int y;

	private GrafanaDashboard(Builder builder) {
		this.builder = builder;
	}

	/**
	 * Starts a dashboard.
	 * @param title the dashboard title
	 * @param namespace the controller's namespace, for the job variable and the uid
	 * @return a builder
	 */
	public static Builder builder(String title, String namespace) {
		return new Builder(title, namespace);
	}

	/**
	 * Every PromQL expression of the dashboard's panels, for checking them.
	 * @return the expressions, in panel order
	 */
	public List<String> expressions() {
		List<String> expressions = new ArrayList<>();
		for (Map<String, Object> panel : this.panels) {
			@SuppressWarnings("unchecked")
			List<Map<String, Object>> targets = (List<Map<String, Object>>) panel.get("targets");
			if (targets != null) {
				targets.forEach((target) -> expressions.add((String) target.get("expr")));
			}
		}
		return expressions;
	}

	/**
	 * Renders the dashboard JSON, ready to import.
	 * @return the JSON
	 */
	public String toJson() {
		Map<String, Object> dashboard = new LinkedHashMap<>();
		dashboard.put("title", this.builder.title);
		dashboard.put("uid", this.builder.namespace + "-controller");
		dashboard.put("tags", List.of("controller-observability", this.builder.namespace));
		dashboard.put("schemaVersion", 39);
		dashboard.put("timezone", "browser");
		dashboard.put("refresh", "30s");
		dashboard.put("time", sorted(Map.of("from", "now-1h", "to", "now")));
		dashboard.put("templating", Map.of("list", variables()));
		dashboard.put("panels", this.panels);
		return IndentedJson.write(dashboard);
	}

	private GrafanaDashboard generate() {
		for (OperationDescriptor operation : this.builder.operations) {
			String family = operation.familyName();
			boolean durations = !this.builder.disabledMetrics.contains(family);
			boolean inFlight = !this.builder.disabledMetrics.contains(operation.inFlightFamilyName());
			if (!durations && !inFlight) {
				continue;
			}
			row(operation.operation().replace('_', ' ') + " operation");
			String selector = selector(true);
			if (durations) {
				durationPanels(operation, family, selector);
			}
			if (inFlight) {
				panel("timeseries", operation.operation() + " in flight", "short",
						target("sum by (" + String.join(", ", operation.labelKeys()) + ") ("
								+ operation.inFlightFamilyName() + selector + ")", legend(operation.labelKeys()),
								false));
			}
		}
		resourceStatePanels();
		webhookPanels();
		leaderElectionPanels();
		catalogPanels();
		return this;
	}

	private void resourceStatePanels() {
		String namespace = this.builder.namespace;
		boolean declared = this.builder.catalog.stream()
			.anyMatch((entry) -> entry.name().equals(namespace + "_" + ResourceStateNames.STATUS_CONDITION));
		if (!declared) {
			return;
		}
		row("Resource state");
		String job = "job=~\"$job\"";
		panel("timeseries", "resources not ready", "short",
				target("count by (kind) (" + ResourceStateRules.notReady(namespace, job) + ")", "{{kind}}", false));
		panel("timeseries", "generations not reconciled", "short",
				target("count by (kind) (" + ResourceStateRules.generationNotReconciled(namespace, job) + ")",
						"{{kind}}", false));
	}

	private void webhookPanels() {
		if (!this.builder.webhooks) {
			return;
		}
		row("Webhooks");
		String job = "job=~\"$job\"";
		String window = this.builder.window;
		// A panel whose family is disabled is left out, as an operation's are.
		if (reads(WebhookRules.ERRORS_READ)) {
			panel("timeseries", "webhook requests by code", "reqps",
					target(WebhookRules.requestsByCode(window, job), "{{webhook}} {{code}}", false));
			panel("timeseries", "webhook error ratio", "percentunit",
					target(WebhookRules.errorRatio(window, job), "{{webhook}}", false));
		}
		if (reads(WebhookRules.LATENCY_READ)) {
			panel("timeseries", "webhook p99 latency", "s",
					target(WebhookRules.p99(window, job), "{{webhook}}", false));
		}
		if (reads(WebhookRules.IN_FLIGHT_READ)) {
			panel("timeseries", "webhook requests in flight", "short",
					target(WebhookRules.inFlight(job), "{{webhook}}", false));
		}
		if (reads(WebhookRules.PANICS_READ)) {
			panel("timeseries", "webhook panics", "short", target(WebhookRules.panics(window, job), "panics", false));
		}
	}

	private void leaderElectionPanels() {
		if (!this.builder.leaderElection || !reads(LeaderElectionRules.NO_LEADER_READ)) {
			return;
		}
		row("Leader election");
		String job = "job=~\"$job\"";
		// 1 while the election works; 0 for about a lease duration during a failover.
		panel("timeseries", "leaders", "short",
				List.of(target(LeaderElectionRules.leaders(job), "{{name}} leaders", false),
						target(LeaderElectionRules.leading(job), "{{instance}} leads {{name}}", false)));
	}

	private boolean reads(List<String> families) {
		return families.stream().noneMatch(this.builder.disabledMetrics::contains);
	}

	private void durationPanels(OperationDescriptor operation, String family, String selector) {
		String window = this.builder.window;
		panel("timeseries", operation.operation() + " rate by result", "ops", target(
				"sum by (result) (rate(" + family + "_count" + selector + "[" + window + "]))", "{{result}}", false));
		panel("heatmap", operation.operation() + " latency", "s",
				target("sum by (le) (rate(" + family + "_bucket" + selector + "[" + window + "]))", "{{le}}", true));
		List<Map<String, Object>> quantiles = new ArrayList<>();
		for (String quantile : new String[] { "0.5", "0.9", "0.99" }) {
			quantiles.add(target(
					"histogram_quantile(" + quantile + ", sum by (le) (rate(" + family + "_bucket" + selector + "["
							+ window + "])))",
					"p" + quantile.substring(2) + (quantile.length() == 3 ? "0" : ""), false));
		}
		panel("timeseries", operation.operation() + " latency p50 / p90 / p99", "s", quantiles);
	}

	private void catalogPanels() {
		List<ReferenceEntry> catalog = this.builder.catalog;
		if (!catalog.isEmpty()) {
			row("Catalog metrics");
		}
		for (ReferenceEntry entry : catalog) {
			List<String> labels = entry.labels()
				.stream()
				.filter((label) -> !this.builder.hiddenLabels.contains(label))
				.toList();
			String selector = selector(labels.contains(this.builder.selectorLabel));
			String by = labels.isEmpty() ? "" : " by (" + String.join(", ", labels) + ")";
			String name = entry.name();
			String window = this.builder.window;
			switch (entry.type()) {
				case "counter" -> panel("timeseries", name, "cps",
						target("sum" + by + " (rate(" + name + selector + "[" + window + "]))", legend(labels), false));
				case "histogram" -> panel("timeseries", name + " p99", "short",
						target("histogram_quantile(0.99, sum by (" + String.join(", ", append(labels, "le"))
								+ ") (rate(" + name + "_bucket" + selector + "[" + window + "])))", legend(labels),
								false));
				case "summary" -> panel("timeseries", name + " mean", "short",
						target("sum" + by + " (rate(" + name + "_sum" + selector + "[" + window + "])) / sum" + by
								+ " (rate(" + name + "_count" + selector + "[" + window + "]))", legend(labels),
								false));
				default -> panel(name.endsWith("_info") ? "table" : "timeseries", name, "short",
						target(gaugeAggregation(labels) + by + " (" + name + selector + ")", legend(labels), false));
			}
		}
	}

	/**
	 * A gauge per object holds the object's state, which every replica reporting it
	 * reports alike: summed over replicas it would multiply, so the newest value is
	 * shown. Any other gauge adds up over replicas (a follower reports zero).
	 */
	private static String gaugeAggregation(List<String> labels) {
		return (labels.contains(ObjectRef.NAMESPACE_LABEL) && labels.contains(ObjectRef.NAME_LABEL)) ? "max" : "sum";
	}

	private List<Map<String, Object>> variables() {
		List<Map<String, Object>> variables = new ArrayList<>();
		Map<String, Object> datasource = new LinkedHashMap<>();
		datasource.put("name", "datasource");
		datasource.put("label", "Data source");
		datasource.put("type", "datasource");
		datasource.put("query", "prometheus");
		variables.add(datasource);
		variables.add(queryVariable("job", "Job",
				"label_values(" + this.builder.namespace + "_observability_errors_total, job)"));
		if (this.builder.selectorLabel != null && !this.builder.operations.isEmpty()) {
			variables.add(queryVariable(this.builder.selectorLabel, this.builder.selectorLabel, "label_values("
					+ this.builder.operations.get(0).familyName() + "_count, " + this.builder.selectorLabel + ")"));
		}
		return variables;
	}

	private Map<String, Object> queryVariable(String name, String label, String query) {
		Map<String, Object> variable = new LinkedHashMap<>();
		variable.put("name", name);
		variable.put("label", label);
		variable.put("type", "query");
		variable.put("datasource", datasource());
		variable.put("query", query);
		variable.put("refresh", 2);
		variable.put("includeAll", true);
		variable.put("multi", true);
		variable.put("allValue", ".*");
		return variable;
	}

	private String selector(boolean withSelectorLabel) {
		String job = "job=~\"$job\"";
		return (withSelectorLabel && this.builder.selectorLabel != null)
				? "{" + job + ", " + this.builder.selectorLabel + "=~\"$" + this.builder.selectorLabel + "\"}"
				: "{" + job + "}";
	}

	private void row(String title) {
		Map<String, Object> row = new LinkedHashMap<>();
		row.put("type", "row");
		row.put("title", title);
		row.put("collapsed", false);
		row.put("gridPos", sorted(Map.of("h", 1, "w", WIDTH, "x", 0, "y", this.y)));
		this.y++;
		this.panels.add(row);
	}

	private void panel(String type, String title, String unit, Map<String, Object> target) {
		panel(type, title, unit, List.of(target));
	}

	private void panel(String type, String title, String unit, List<Map<String, Object>> targets) {
		int index = this.panels.size();
		Map<String, Object> panel = new LinkedHashMap<>();
		panel.put("type", type);
		panel.put("title", title);
		panel.put("datasource", datasource());
		panel.put("gridPos",
				sorted(Map.of("h", HEIGHT, "w", WIDTH / 2, "x", (index % 2 == 0) ? 0 : WIDTH / 2, "y", this.y)));
		panel.put("fieldConfig", sorted(Map.of("defaults", Map.of("unit", unit), "overrides", List.of())));
		List<Map<String, Object>> refs = new ArrayList<>();
		char refId = 'A';
		for (Map<String, Object> target : targets) {
			Map<String, Object> withRef = new LinkedHashMap<>(target);
			withRef.put("refId", String.valueOf(refId++));
			refs.add(withRef);
		}
		panel.put("targets", refs);
		this.panels.add(panel);
		if (index % 2 == 1) {
			this.y += HEIGHT;
		}
	}

	private static Map<String, Object> target(String expr, String legend, boolean heatmap) {
		Map<String, Object> target = new LinkedHashMap<>();
		target.put("datasource", datasource());
		target.put("expr", expr);
		target.put("legendFormat", legend);
		if (heatmap) {
			target.put("format", "heatmap");
		}
		return target;
	}

	private static Map<String, Object> datasource() {
		return sorted(Map.of("type", "prometheus", "uid", "${datasource}"));
	}

	// Map.of has no order; the JSON keeps a map's order, and sorted keys keep the
	// dashboard the same on every run.
	private static Map<String, Object> sorted(Map<String, ?> map) {
		return new TreeMap<>(map);
	}

	private static String legend(List<String> labels) {
		return labels.isEmpty() ? "__auto"
				: String.join(" ", labels.stream().map((label) -> "{{" + label + "}}").toList());
	}

	private static List<String> append(List<String> labels, String label) {
		List<String> result = new ArrayList<>(labels);
		result.add(label);
		return result;
	}

	/** Builds a {@link GrafanaDashboard}. */
	public static final class Builder {

		private final String title;

		private final String namespace;

		private List<OperationDescriptor> operations = List.of();

		private List<ReferenceEntry> catalog = List.of();

		private Set<String> hiddenLabels = Set.of();

		private Set<String> disabledMetrics = Set.of();

		private String selectorLabel;

		private String window = "5m";

		private boolean webhooks;

		private boolean leaderElection;

		private Builder(String title, String namespace) {
			this.title = title;
			this.namespace = namespace;
		}

		/**
		 * Sets the operations to draw; the first label of the first one becomes a
		 * template variable.
		 * @param operations the operations
		 * @return this builder
		 */
		public Builder operations(List<OperationDescriptor> operations) {
			this.operations = List.copyOf(operations);
			if (!operations.isEmpty() && !operations.get(0).labelKeys().isEmpty()) {
				this.selectorLabel = operations.get(0).labelKeys().get(0);
			}
			return this;
		}

		/**
		 * Sets the catalog metrics to draw.
		 * @param catalog the metrics
		 * @return this builder
		 */
		public Builder catalog(List<ReferenceEntry> catalog) {
			this.catalog = List.copyOf(catalog);
			return this;
		}

		/**
		 * Sets labels not to group by, such as common tags.
		 * @param hiddenLabels the labels
		 * @return this builder
		 */
		public Builder hiddenLabels(Set<String> hiddenLabels) {
			this.hiddenLabels = Set.copyOf(hiddenLabels);
			return this;
		}

		/**
		 * Sets the metrics never registered, whose panels would stay empty: an
		 * operation's duration panels go with its histogram, its in-flight panel with its
		 * gauge.
		 * @param disabledMetrics Prometheus names of the disabled metrics
		 * @return this builder
		 */
		public Builder disabledMetrics(Collection<String> disabledMetrics) {
			this.disabledMetrics = Set.copyOf(disabledMetrics);
			return this;
		}

		/**
		 * Sets the rate window.
		 * @param window a Prometheus duration such as {@code 5m}
		 * @return this builder
		 */
		public Builder window(String window) {
			this.window = window;
			return this;
		}

		/**
		 * Adds a row on controller-runtime's webhook metrics: requests by code, error
		 * ratio, p99 latency, requests in flight per webhook, and panics.
		 * @param webhooks whether the controller serves webhooks
		 * @return this builder
		 */
		public Builder webhooks(boolean webhooks) {
			this.webhooks = webhooks;
			return this;
		}

		/**
		 * Adds a row on {@code leader_election_master_status}: the leaders of each
		 * election, summed over the replicas, and which replica leads it.
		 * @param leaderElection whether the controller's replicas elect a leader
		 * @return this builder
		 */
		public Builder leaderElection(boolean leaderElection) {
			this.leaderElection = leaderElection;
			return this;
		}

		/**
		 * Builds the dashboard.
		 * @return the dashboard
		 */
		public GrafanaDashboard build() {
			return new GrafanaDashboard(this).generate();
		}

	}

}
