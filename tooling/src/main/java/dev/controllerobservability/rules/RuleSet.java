package dev.controllerobservability.rules;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.internal.rules.LeaderElectionRuleSettings;
import dev.controllerobservability.internal.rules.LeaderElectionRules;
import dev.controllerobservability.internal.rules.ManifestYaml;
import dev.controllerobservability.internal.rules.OperationRuleSettings;
import dev.controllerobservability.internal.rules.OperationRules;
import dev.controllerobservability.internal.rules.ResourceStateRuleSettings;
import dev.controllerobservability.internal.rules.ResourceStateRules;
import dev.controllerobservability.internal.rules.RuleSettingRules;
import dev.controllerobservability.internal.rules.RuleTemplates;
import dev.controllerobservability.internal.rules.RuleValidator;
import dev.controllerobservability.internal.rules.WebhookRuleSettings;
import dev.controllerobservability.internal.rules.WebhookRules;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingRules;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * A controller's rule group: recording rules first, then alerts, ready to deploy as a
 * Prometheus rules file or a Prometheus Operator {@code PrometheusRule}. Build it with
 * {@link #builder(String, Function)}, which adds the built-in rules of operations and
 * checks every rule and setting as the starter does at start-up; the constructor takes
 * rules as they are. Example:
 *
 * <pre>{@code
 * RuleSet ruleSet = RuleSet.builder("karpenter", observability.operations()::describe)
 *     .errorRatioAlert("launch", 0.2, "10m", AlertSeverity.WARNING)
 *     .alert(new AlertRule("KarpenterNodesTerminatedOften", "rate(${namespace}_nodes_terminated_total[15m]) > 1",
 *             "15m", "warning", "Nodes are terminated often", null, null, null, null))
 *     .build();
 * Files.writeString(Path.of("rules.yaml"), ruleSet.toRulesFile());
 * Files.writeString(Path.of("prometheusrule.yaml"), ruleSet.toPrometheusRule("demo-controller", Map.of()));
 * }</pre>
 *
 * @param group the rule group name
 * @param recordingRules recording rules, in order
 * @param alerts alerts, in order
 */
public record RuleSet(String group, List<RecordingRule> recordingRules, List<AlertRule> alerts) {

	public RuleSet {
		recordingRules = List.copyOf(recordingRules);
		alerts = List.copyOf(alerts);
	}

	/**
	 * Renders a Prometheus rules file ({@code rule_files}).
	 * @return the YAML
	 */
	public String toRulesFile() {
		return ManifestYaml.dump(Map.of("groups", List.of(groupMap())));
	}

	/**
	 * Starts a checked rule set.
	 * @param namespace the controller's namespace, such as {@code karpenter}
	 * @param operations describes an operation by name, such as
	 * {@code observability.operations()::describe}
	 * @return the builder
	 */
	public static Builder builder(String namespace, Function<String, OperationDescriptor> operations) {
		return new Builder(namespace, operations);
	}

	/**
	 * Renders a {@code monitoring.coreos.com/v1} {@code PrometheusRule}.
	 * @param name the resource name
	 * @param labels metadata labels, such as the ones the Prometheus Operator selects on
	 * @return the YAML manifest
	 * @throws InvalidSettingException for a label that is no Kubernetes label, which the
	 * API server would reject
	 */
	public String toPrometheusRule(String name, Map<String, String> labels) {
		RuleSettingRules.prometheusRuleLabels(labels);
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("name", name);
		if (!labels.isEmpty()) {
			metadata.put("labels", new LinkedHashMap<>(labels));
		}
		Map<String, Object> manifest = new LinkedHashMap<>();
		manifest.put("apiVersion", "monitoring.coreos.com/v1");
		manifest.put("kind", "PrometheusRule");
		manifest.put("metadata", metadata);
		manifest.put("spec", Map.of("groups", List.of(groupMap())));
		return ManifestYaml.dump(manifest);
	}

	private Map<String, Object> groupMap() {
		List<Object> rules = new ArrayList<>();
		for (RecordingRule rule : this.recordingRules) {
			Map<String, Object> map = new LinkedHashMap<>();
			map.put("record", rule.name());
			map.put("expr", rule.expr());
			if (!rule.labels().isEmpty()) {
				map.put("labels", new TreeMap<>(rule.labels()));
			}
			rules.add(map);
		}
		for (AlertRule alert : this.alerts) {
			Map<String, Object> map = new LinkedHashMap<>();
			map.put("alert", alert.name());
			map.put("expr", alert.expr());
			if (alert.forDuration() != null) {
				map.put("for", alert.forDuration());
			}
			Map<String, String> labels = new TreeMap<>(alert.labels());
			labels.put("severity", alert.severity());
			map.put("labels", labels);
			Map<String, String> annotations = new TreeMap<>(alert.annotations());
			annotations.put("summary", alert.summary());
			if (alert.description() != null) {
				annotations.put("description", alert.description());
			}
			if (alert.runbookUrl() != null) {
				annotations.put("runbook_url", alert.runbookUrl());
			}
			map.put("annotations", annotations);
			rules.add(map);
		}
		Map<String, Object> group = new LinkedHashMap<>();
		group.put("name", this.group);
		group.put("rules", rules);
		return group;
	}

	/**
	 * Builds a {@link RuleSet}: the built-in rules of the operations switched on, then
	 * the recording rules and alerts given, their placeholders ({@code ${namespace}},
	 * {@code ${operation.<name>.duration}}, {@code ${operation.<name>.in_flight}})
	 * resolved. {@link #build()} refuses a setting with an
	 * {@link InvalidSettingException} and a rule with an {@link InvalidRuleException}, by
	 * the same rules that refuse the {@code controller.observability.rules.*},
	 * {@code alerts} and {@code recording-rules} properties.
	 */
	public static final class Builder {

		/** The disabled metrics given to this builder, checked by the core's rule. */
		private static final Setting DISABLED_METRICS = new Setting("disabled-metrics",
				"RuleSet.Builder.disabledMetrics(…)");

		private final String namespace;

		private final Function<String, OperationDescriptor> operations;

		private @Nullable String window = "5m";

		private @Nullable String group;

		private final Set<String> operationOrder = new LinkedHashSet<>();

		private final Map<String, ErrorRatioArguments> errorRatios = new LinkedHashMap<>();

		private final Map<String, LatencyArguments> latencies = new LinkedHashMap<>();

		private final Map<String, AlertArguments> stuck = new LinkedHashMap<>();

		private final List<RecordingRule> recordingRules = new ArrayList<>();

		private final List<AlertRule> alerts = new ArrayList<>();

		private @Nullable AlertArguments notReady;

		private @Nullable AlertArguments generationNotReconciled;

		private @Nullable AlertArguments webhookErrors;

		private @Nullable AlertArguments webhookLatency;

		private @Nullable AlertArguments webhookPanics;

		private @Nullable AlertArguments noLeader;

		private @Nullable AlertArguments reconcilingWithoutLease;

		private @Nullable List<@Nullable String> disabledMetrics = List.of();

		private Builder(String namespace, Function<String, OperationDescriptor> operations) {
			this.namespace = namespace;
			this.operations = operations;
		}

		/**
		 * Sets the rate window of the built-in recording rules.
		 * @param window a Prometheus duration; {@code 5m} unless set
		 * @return this builder
		 */
		public Builder window(@Nullable String window) {
			this.window = window;
			return this;
		}

		/**
		 * Sets the rule group name.
		 * @param group the name; {@code <namespace>.rules} unless set
		 * @return this builder
		 */
		public Builder group(@Nullable String group) {
			this.group = group;
			return this;
		}

		/**
		 * Switches on the error-ratio alert of an operation, with the recording rules it
		 * reads: it fires when the share of failed calls stays above the threshold.
		 * @param operation the operation, such as {@code launch}
		 * @param threshold the share of failed calls, above 0 and at most 1, such as 0.05
		 * @param forDuration how long the ratio must stay above it, such as {@code 10m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder errorRatioAlert(String operation, double threshold, @Nullable String forDuration,
				@Nullable AlertSeverity severity) {
			this.operationOrder.add(operation);
			this.errorRatios.put(operation, new ErrorRatioArguments(threshold, forDuration, severity));
			return this;
		}

		/**
		 * Switches on the latency alert of an operation, with the recording rule it
		 * reads: it fires when the quantile of its durations stays above the threshold.
		 * @param operation the operation, such as {@code bind}
		 * @param quantile the quantile, between 0 and 1, such as 0.99
		 * @param threshold the latency above which it fires, such as 10 seconds
		 * @param forDuration how long the latency must stay above it, such as {@code 10m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder latencyAlert(String operation, double quantile, @Nullable Duration threshold,
				@Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.operationOrder.add(operation);
			this.latencies.put(operation, new LatencyArguments(quantile, threshold, forDuration, severity));
			return this;
		}

		/**
		 * Switches on the stuck-in-flight alert of an operation: it fires when calls stay
		 * in flight while none completes.
		 * @param operation the operation, such as {@code launch}
		 * @param forDuration how long that may last, such as {@code 15m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder stuckAlert(String operation, @Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.operationOrder.add(operation);
			this.stuck.put(operation, new AlertArguments(forDuration, severity));
			return this;
		}

		/**
		 * Switches on {@code ResourceNotReady}: it fires when the {@code Ready} condition
		 * of a resource in {@code <namespace>_resource_status_condition} (the Java
		 * Operator SDK integration's resource state metrics) stays not {@code True}.
		 * @param forDuration how long that may last, such as {@code 15m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder resourceNotReadyAlert(@Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.notReady = new AlertArguments(forDuration, severity);
			return this;
		}

		/**
		 * Switches on {@code WebhookErrorRatioHigh}: it fires when more than 5% of a
		 * webhook's requests, summed over the replicas, get a non-2xx answer in
		 * {@code controller_runtime_webhook_requests_total}.
		 * @param forDuration how long that may last, such as {@code 15m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder webhookErrorsAlert(@Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.webhookErrors = new AlertArguments(forDuration, severity);
			return this;
		}

		/**
		 * Switches on {@code WebhookLatencyHigh}: it fires when the p99 of a webhook's
		 * {@code controller_runtime_webhook_latency_seconds}, over the replicas, is above
		 * 1s.
		 * @param forDuration how long that may last, such as {@code 15m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder webhookLatencyAlert(@Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.webhookLatency = new AlertArguments(forDuration, severity);
			return this;
		}

		/**
		 * Switches on {@code WebhookPanics}: it fires when admission or conversion
		 * webhook handlers threw within the rate window.
		 * @param forDuration how long that may last, such as {@code 0m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder webhookPanicsAlert(@Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.webhookPanics = new AlertArguments(forDuration, severity);
			return this;
		}

		/**
		 * Switches on {@code LeaderElectionNoLeader}: it fires when no replica reported
		 * {@code leader_election_master_status} 1 for an election over the last 5m, a
		 * window a failover after a killed leader stays within.
		 * @param forDuration how long that may last, such as {@code 5m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder leaderElectionNoLeaderAlert(@Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.noLeader = new AlertArguments(forDuration, severity);
			return this;
		}

		/**
		 * Switches on {@code LeaderElectionReconcilingWithoutLease}: it fires when a
		 * replica's {@code controller_runtime_reconcile_total} rose over the last 5m
		 * while its {@code leader_election_master_status} stayed 0, as on a replica that
		 * keeps running its controllers after losing its lease.
		 * @param forDuration how long that may last, such as {@code 5m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder reconcilingWithoutLeaseAlert(@Nullable String forDuration, @Nullable AlertSeverity severity) {
			this.reconcilingWithoutLease = new AlertArguments(forDuration, severity);
			return this;
		}

		/**
		 * Switches on {@code ResourceGenerationNotReconciled}: it fires when
		 * {@code <namespace>_resource_generation} of a resource stays above its
		 * {@code <namespace>_resource_observed_generation}.
		 * @param forDuration how long that may last, such as {@code 15m}
		 * @param severity the alert's severity
		 * @return this builder
		 */
		public Builder resourceGenerationNotReconciledAlert(@Nullable String forDuration,
				@Nullable AlertSeverity severity) {
			this.generationNotReconciled = new AlertArguments(forDuration, severity);
			return this;
		}

		/**
		 * Names the metrics the controller never registers, as
		 * {@code ControllerObservability.disabledMetrics()} returns them: a built-in
		 * webhook or leader-election alert that reads one of them is left out, as the
		 * dashboard leaves out its panel, since it could never fire.
		 * @param disabledMetrics exposed names such as
		 * {@code controller_runtime_webhook_panics_total}, checked when built as
		 * {@code ControllerObservability.Builder.disabledMetrics(…)} checks them
		 * @return this builder
		 */
		public Builder disabledMetrics(List<String> disabledMetrics) {
			this.disabledMetrics = (disabledMetrics != null) ? new ArrayList<>(disabledMetrics) : null;
			return this;
		}

		/**
		 * Adds a recording rule of the user's own.
		 * @param rule the rule; its expression may use placeholders
		 * @return this builder
		 */
		public Builder recordingRule(RecordingRule rule) {
			this.recordingRules.add(rule);
			return this;
		}

		/**
		 * Adds an alert of the user's own.
		 * @param alert the alert; its expression, summary and description may use
		 * placeholders
		 * @return this builder
		 */
		public Builder alert(AlertRule alert) {
			this.alerts.add(alert);
			return this;
		}

		/**
		 * Checks every setting and rule, and builds the rule set.
		 * @return the rule set
		 * @throws InvalidSettingException for a setting that cannot be used, naming it
		 * @throws InvalidRuleException for a rule Prometheus would reject, naming it
		 */
		public RuleSet build() {
			String window = RuleSettingRules.window(this.window);
			String group = RuleSettingRules.group((this.group != null) ? this.group : this.namespace + ".rules",
					this.namespace);
			Set<String> disabled = Set.copyOf(SettingRules.disabledMetrics(DISABLED_METRICS, this.disabledMetrics));
			List<RecordingRule> recordingRules = new ArrayList<>();
			List<AlertRule> alerts = new ArrayList<>();
			for (String operation : this.operationOrder) {
				OperationRuleSettings settings = new OperationRuleSettings(window,
						errorRatio(operation, this.errorRatios.get(operation)),
						latency(operation, this.latencies.get(operation)), stuck(operation, this.stuck.get(operation)));
				OperationRules.add(this.namespace, this.operations.apply(operation), settings, recordingRules, alerts);
			}
			ResourceStateRules.add(this.namespace,
					new ResourceStateRuleSettings(alert(ResourceStateRuleSettings.NOT_READY, this.notReady),
							alert(ResourceStateRuleSettings.GENERATION_NOT_RECONCILED, this.generationNotReconciled)),
					alerts);
			WebhookRules.add(window, new WebhookRuleSettings(
					alert(WebhookRuleSettings.ERRORS, this.webhookErrors, WebhookRules.ERRORS_READ, disabled),
					alert(WebhookRuleSettings.LATENCY, this.webhookLatency, WebhookRules.LATENCY_READ, disabled),
					alert(WebhookRuleSettings.PANICS, this.webhookPanics, WebhookRules.PANICS_READ, disabled)), alerts);
			LeaderElectionRules.add(new LeaderElectionRuleSettings(
					alert(LeaderElectionRuleSettings.NO_LEADER, this.noLeader, LeaderElectionRules.NO_LEADER_READ,
							disabled),
					alert(LeaderElectionRuleSettings.RECONCILING_WITHOUT_LEASE, this.reconcilingWithoutLease,
							LeaderElectionRules.RECONCILING_WITHOUT_LEASE_READ, disabled)),
					alerts);
			recordingRules.forEach(RuleValidator::validate);
			alerts.forEach(RuleValidator::validate);
			RuleTemplates templates = new RuleTemplates(this.namespace, this.operations);
			for (RecordingRule rule : this.recordingRules) {
				RecordingRule resolved = new RecordingRule(rule.name(),
						templates.resolve(rule.name(), "expr", rule.expr()), rule.labels());
				RuleValidator.validate(resolved);
				recordingRules.add(resolved);
			}
			for (AlertRule alert : this.alerts) {
				String name = alert.name();
				AlertRule resolved = new AlertRule(name, templates.resolve(name, "expr", alert.expr()),
						alert.forDuration(), alert.severity(), templates.resolve(name, "summary", alert.summary()),
						templates.resolve(name, "description", alert.description()), alert.runbookUrl(), alert.labels(),
						alert.annotations());
				RuleValidator.validate(resolved);
				alerts.add(resolved);
			}
			return new RuleSet(group, recordingRules, alerts);
		}

		private static OperationRuleSettings.@Nullable ErrorRatio errorRatio(String operation,
				@Nullable ErrorRatioArguments given) {
			return (given != null) ? new OperationRuleSettings.ErrorRatio(operation, given.threshold(),
					given.forDuration(), given.severity()) : null;
		}

		private static OperationRuleSettings.@Nullable Latency latency(String operation,
				@Nullable LatencyArguments given) {
			return (given != null) ? new OperationRuleSettings.Latency(operation, given.quantile(), given.threshold(),
					given.forDuration(), given.severity()) : null;
		}

		private static OperationRuleSettings.@Nullable Stuck stuck(String operation, @Nullable AlertArguments given) {
			return (given != null) ? new OperationRuleSettings.Stuck(operation, given.forDuration(), given.severity())
					: null;
		}

		private static ResourceStateRuleSettings.@Nullable Alert alert(Setting setting,
				@Nullable AlertArguments given) {
			return (given != null) ? ResourceStateRuleSettings.Alert.of(setting, given.forDuration(), given.severity())
					: null;
		}

		/**
		 * A built-in alert switched on, unless it reads a disabled metric; its arguments
		 * are checked either way.
		 */
		private static ResourceStateRuleSettings.@Nullable Alert alert(Setting setting, @Nullable AlertArguments given,
				List<String> reads, Set<String> disabled) {
			ResourceStateRuleSettings.Alert alert = alert(setting, given);
			return (alert != null && reads.stream().noneMatch(disabled::contains)) ? alert : null;
		}

		/** The arguments as given, checked when built. */
		private record ErrorRatioArguments(double threshold, @Nullable String forDuration,
				@Nullable AlertSeverity severity) {
		}

		private record LatencyArguments(double quantile, @Nullable Duration threshold, @Nullable String forDuration,
				@Nullable AlertSeverity severity) {
		}

		private record AlertArguments(@Nullable String forDuration, @Nullable AlertSeverity severity) {
		}

	}

}
