package dev.controllerobservability.internal.rules;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.rules.ScrapeTarget;

/**
 * What the rules file, the {@code PrometheusRule}, the monitors and the dashboard are
 * generated from, each value checked. The placeholders of alerts and recording rules are
 * resolved, and the rules checked as Prometheus reads them, by {@link #toRuleSet}.
 *
 * @param window range of the rate windows, such as {@code 5m}
 * @param group name of the rule group
 * @param prometheusRuleLabels labels of the generated Prometheus Operator resources
 * @param operations built-in rules per operation, keyed as configured
 * @param recordingRules recording rules of the user's own, keyed by record name, before
 * their placeholders are resolved
 * @param alerts alerts of the user's own, keyed by alert name, before their placeholders
 * are resolved
 * @param scrape where and how often Prometheus scrapes the controller
 * @param resourceState built-in alerts on the resource state metrics
 * @param webhooks built-in alerts on the webhook metrics
 * @param leaderElection built-in alerts on {@code leader_election_master_status}
 */
public record RuleSettings(String window, String group, Map<String, String> prometheusRuleLabels,
		Map<String, OperationRuleSettings> operations, Map<String, RecordingRule> recordingRules,
		Map<String, AlertRule> alerts, ScrapeTarget scrape, ResourceStateRuleSettings resourceState,
		WebhookRuleSettings webhooks, LeaderElectionRuleSettings leaderElection) {

	/**
	 * Settings without built-in alerts on leader election.
	 * @param window range of the rate windows
	 * @param group name of the rule group
	 * @param prometheusRuleLabels labels of the generated Prometheus Operator resources
	 * @param operations built-in rules per operation
	 * @param recordingRules recording rules of the user's own
	 * @param alerts alerts of the user's own
	 * @param scrape where and how often Prometheus scrapes the controller
	 * @param resourceState built-in alerts on the resource state metrics
	 * @param webhooks built-in alerts on the webhook metrics
	 */
	public RuleSettings(String window, String group, Map<String, String> prometheusRuleLabels,
			Map<String, OperationRuleSettings> operations, Map<String, RecordingRule> recordingRules,
			Map<String, AlertRule> alerts, ScrapeTarget scrape, ResourceStateRuleSettings resourceState,
			WebhookRuleSettings webhooks) {
		this(window, group, prometheusRuleLabels, operations, recordingRules, alerts, scrape, resourceState, webhooks,
				LeaderElectionRuleSettings.NONE);
	}

	/**
	 * Settings without built-in alerts on webhooks.
	 * @param window range of the rate windows
	 * @param group name of the rule group
	 * @param prometheusRuleLabels labels of the generated Prometheus Operator resources
	 * @param operations built-in rules per operation
	 * @param recordingRules recording rules of the user's own
	 * @param alerts alerts of the user's own
	 * @param scrape where and how often Prometheus scrapes the controller
	 * @param resourceState built-in alerts on the resource state metrics
	 */
	public RuleSettings(String window, String group, Map<String, String> prometheusRuleLabels,
			Map<String, OperationRuleSettings> operations, Map<String, RecordingRule> recordingRules,
			Map<String, AlertRule> alerts, ScrapeTarget scrape, ResourceStateRuleSettings resourceState) {
		this(window, group, prometheusRuleLabels, operations, recordingRules, alerts, scrape, resourceState,
				WebhookRuleSettings.NONE);
	}

	/**
	 * Settings without built-in alerts on resource state.
	 * @param window range of the rate windows
	 * @param group name of the rule group
	 * @param prometheusRuleLabels labels of the generated Prometheus Operator resources
	 * @param operations built-in rules per operation
	 * @param recordingRules recording rules of the user's own
	 * @param alerts alerts of the user's own
	 * @param scrape where and how often Prometheus scrapes the controller
	 */
	public RuleSettings(String window, String group, Map<String, String> prometheusRuleLabels,
			Map<String, OperationRuleSettings> operations, Map<String, RecordingRule> recordingRules,
			Map<String, AlertRule> alerts, ScrapeTarget scrape) {
		this(window, group, prometheusRuleLabels, operations, recordingRules, alerts, scrape,
				new ResourceStateRuleSettings(null, null), WebhookRuleSettings.NONE);
	}

	/**
	 * The rule set: the built-in rules of the operations, then the user's own, leaving
	 * out the built-in alerts that read a disabled metric.
	 * @param namespace the controller's namespace
	 * @param describe the names and labels of an operation's metrics
	 * @param disabledMetrics exposed names of the metrics never registered
	 * @return the rule set
	 * @throws dev.controllerobservability.rules.InvalidRuleException for a rule
	 * Prometheus would refuse, named as {@link #property(String)} says
	 */
	public RuleSet toRuleSet(String namespace, Function<String, OperationDescriptor> describe,
			List<String> disabledMetrics) {
		RuleSet.Builder builder = RuleSet.builder(namespace, describe)
			.window(this.window)
			.group(this.group)
			.disabledMetrics(disabledMetrics);
		this.operations.forEach((operation, rules) -> {
			if (rules.errorRatio() != null) {
				builder.errorRatioAlert(operation, rules.errorRatio().threshold(), rules.errorRatio().forDuration(),
						rules.errorRatio().severity());
			}
			if (rules.latency() != null) {
				builder.latencyAlert(operation, rules.latency().quantile(), rules.latency().threshold(),
						rules.latency().forDuration(), rules.latency().severity());
			}
			if (rules.stuck() != null) {
				builder.stuckAlert(operation, rules.stuck().forDuration(), rules.stuck().severity());
			}
		});
		ResourceStateRuleSettings.Alert notReady = this.resourceState.notReady();
		if (notReady != null) {
			builder.resourceNotReadyAlert(notReady.forDuration(), notReady.severity());
		}
		ResourceStateRuleSettings.Alert generation = this.resourceState.generationNotReconciled();
		if (generation != null) {
			builder.resourceGenerationNotReconciledAlert(generation.forDuration(), generation.severity());
		}
		if (this.webhooks.errors() != null) {
			builder.webhookErrorsAlert(this.webhooks.errors().forDuration(), this.webhooks.errors().severity());
		}
		if (this.webhooks.latency() != null) {
			builder.webhookLatencyAlert(this.webhooks.latency().forDuration(), this.webhooks.latency().severity());
		}
		if (this.webhooks.panics() != null) {
			builder.webhookPanicsAlert(this.webhooks.panics().forDuration(), this.webhooks.panics().severity());
		}
		if (this.leaderElection.noLeader() != null) {
			builder.leaderElectionNoLeaderAlert(this.leaderElection.noLeader().forDuration(),
					this.leaderElection.noLeader().severity());
		}
		if (this.leaderElection.reconcilingWithoutLease() != null) {
			builder.reconcilingWithoutLeaseAlert(this.leaderElection.reconcilingWithoutLease().forDuration(),
					this.leaderElection.reconcilingWithoutLease().severity());
		}
		this.recordingRules.values().forEach(builder::recordingRule);
		this.alerts.values().forEach(builder::alert);
		return builder.build();
	}

	/**
	 * The property below {@code controller.observability} a refused rule came from: an
	 * alert, a recording rule, or a built-in rule.
	 * @param rule the refused rule's name
	 * @return the property
	 */
	public String property(String rule) {
		if (this.alerts.containsKey(rule)) {
			return "alerts." + rule;
		}
		if (this.recordingRules.containsKey(rule)) {
			return "recording-rules[" + rule + "]";
		}
		if (rule.startsWith("LeaderElection")) {
			return "kubernetes.leader-election.alerts";
		}
		if (rule.startsWith("Webhook")) {
			return "kubernetes.webhooks.alerts";
		}
		return rule.startsWith("Resource") ? "kubernetes.resource-state.alerts" : "rules.operations";
	}

	/**
	 * The operations known before their first call: declared, or given built-in rules.
	 * @param declared snake_case names of the declared operations
	 * @return the snake_case names, declared ones first
	 */
	public List<String> operationNames(Collection<String> declared) {
		Set<String> names = new LinkedHashSet<>(declared);
		this.operations.keySet().forEach((name) -> names.add(MetricNames.toSnakeCase(name)));
		return List.copyOf(names);
	}

}
