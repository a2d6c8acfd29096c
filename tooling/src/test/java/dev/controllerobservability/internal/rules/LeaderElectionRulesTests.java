package dev.controllerobservability.internal.rules;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.AlertSeverity;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.test.Promtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The built-in leader-election alerts, in promtool's rule tests with three replicas per
 * controller: a replica reconciling after losing its lease fires, as does an election
 * nobody leads; a failover after a killed leader, a graceful handover, idle followers and
 * the first minutes of an election raise no alert, not even a pending one.
 */
class LeaderElectionRulesTests {

	private final RuleSet ruleSet = RuleSet.builder("shop", (operation) -> null)
		.leaderElectionNoLeaderAlert("5m", AlertSeverity.CRITICAL)
		.reconcilingWithoutLeaseAlert("5m", AlertSeverity.WARNING)
		.build();

	@TempDir
	private Path directory;

	@Test
	void rendersBothAlertsOverTheReplicas() {
		assertThat(this.ruleSet.alerts()).extracting(AlertRule::name, AlertRule::expr)
			.containsExactly(
					org.assertj.core.groups.Tuple.tuple("LeaderElectionNoLeader",
							"sum without (instance, pod) (max_over_time(leader_election_master_status[5m])) == 0 and "
									+ "sum without (instance, pod) (leader_election_master_status offset 5m) >= 0"),
					org.assertj.core.groups.Tuple.tuple("LeaderElectionReconcilingWithoutLease",
							"sum by (job, instance, pod) (increase(controller_runtime_reconcile_total[5m] offset 1m)) > 0 "
									+ "and on (job, instance, pod) max by (job, instance, pod) "
									+ "(max_over_time(leader_election_master_status[6m])) == 0"));
	}

	@Test
	void refusesAnAlertWithoutDuration() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> RuleSet.builder("shop", (operation) -> null)
				.reconcilingWithoutLeaseAlert(null, AlertSeverity.WARNING)
				.build())
			.withMessageContaining("RuleSet.Builder.reconcilingWithoutLeaseAlert(…)");
	}

	@Test
	void promtoolAcceptsTheRulesAndTheyFireOnlyWithoutALeaderOrOnAReplicaReconcilingWithoutLease() throws Exception {
		Path rules = Files.writeString(this.directory.resolve("rules.yaml"), this.ruleSet.toRulesFile());
		assertThat(Promtool.checkRules(rules)).contains("SUCCESS");
		Path test = Files.writeString(this.directory.resolve("test.yaml"),
				"""
						rule_files: [rules.yaml]
						evaluation_interval: 1m
						tests:
						  - interval: 1m
						    input_series:
						      # failover: leader a is killed at 10m (its series go stale); b takes the
						      # lease two minutes later, longer than any lease; c always follows.
						      - series: 'leader_election_master_status{job="failover",instance="a",name="lease"}'
						        values: '0 1x9 stale'
						      - series: 'controller_runtime_reconcile_total{job="failover",instance="a",controller="pods",result="success"}'
						        values: '0 0+10x9 stale'
						      - series: 'leader_election_master_status{job="failover",instance="b",name="lease"}'
						        values: '0x11 1x30'
						      - series: 'controller_runtime_reconcile_total{job="failover",instance="b",controller="pods",result="success"}'
						        values: '0x11 0+10x30'
						      - series: 'leader_election_master_status{job="failover",instance="c",name="lease"}'
						        values: '0x41'
						      - series: 'controller_runtime_reconcile_total{job="failover",instance="c",controller="pods",result="success"}'
						        values: '0x41'
						      # handover: a stops leading at 11m, alive; a reconcile it had under way
						      # completes one scrape later. b leads from 11m.
						      - series: 'leader_election_master_status{job="handover",instance="a",name="lease"}'
						        values: '1x10 0x30'
						      - series: 'controller_runtime_reconcile_total{job="handover",instance="a",controller="pods",result="success"}'
						        values: '0+10x11 110x29'
						      - series: 'leader_election_master_status{job="handover",instance="b",name="lease"}'
						        values: '0x10 1x30'
						      - series: 'controller_runtime_reconcile_total{job="handover",instance="b",controller="pods",result="success"}'
						        values: '0x10 0+10x30'
						      # zombie: a loses its lease at 11m but keeps reconciling; b leads from
						      # 11m until it is killed at 20m, and nobody runs for the lease again.
						      - series: 'leader_election_master_status{job="zombie",instance="a",name="lease"}'
						        values: '1x10 0x30'
						      - series: 'controller_runtime_reconcile_total{job="zombie",instance="a",cluster="demo",controller="pods",result="success"}'
						        values: '0+10x40'
						      - series: 'leader_election_master_status{job="zombie",instance="b",name="lease"}'
						        values: '0x10 1x8 stale'
						      - series: 'controller_runtime_reconcile_total{job="zombie",instance="b",controller="pods",result="success"}'
						        values: '0x10 0+10x8 stale'
						      # never: the replicas join an election nobody wins.
						      - series: 'leader_election_master_status{job="never",instance="a",name="lease"}'
						        values: '0x41'
						      - series: 'leader_election_master_status{job="never",instance="b",name="lease"}'
						        values: '0x41'
						    alert_rule_test:
						      - eval_time: 15m
						        alertname: LeaderElectionReconcilingWithoutLease
						        exp_alerts: []
						      - eval_time: 22m
						        alertname: LeaderElectionReconcilingWithoutLease
						        exp_alerts:
						          - exp_labels: {severity: warning, job: zombie, instance: a}
						            exp_annotations:
						              summary: a reconciles without holding the lease
						              description: "50 reconciles between 6m and 1m ago on a replica that led no election since: it kept running its controllers after losing its lease (Java Operator SDK with exit-on-stop-leading false), doubling the leader's work. Restart it. See docs/operations.md, section Replicas and high availability."
						      - eval_time: 9m
						        alertname: LeaderElectionNoLeader
						        exp_alerts: []
						      - eval_time: 11m
						        alertname: LeaderElectionNoLeader
						        exp_alerts:
						          - exp_labels: {severity: critical, job: never, name: lease}
						            exp_annotations: &noleader
						              summary: No replica has led election lease for 5m
						              description: "No replica reported leader_election_master_status 1 over the last 5m: its controllers run nowhere. A replica that lost its lease while alive does not run for it again; restart the replicas. See docs/operations.md, section Replicas and high availability."
						      - eval_time: 29m
						        alertname: LeaderElectionNoLeader
						        exp_alerts:
						          - exp_labels: {severity: critical, job: never, name: lease}
						            exp_annotations: *noleader
						      - eval_time: 31m
						        alertname: LeaderElectionNoLeader
						        exp_alerts:
						          - exp_labels: {severity: critical, job: never, name: lease}
						            exp_annotations: *noleader
						          - exp_labels: {severity: critical, job: zombie, name: lease}
						            exp_annotations: *noleader
						    promql_expr_test:
						      # Not even pending, at any evaluation, for the failover, the handover,
						      # the idle followers or the zombie's election while b led.
						      - expr: count by (job, alertname) (max_over_time(ALERTS{job=~"failover|handover"}[40m]))
						        eval_time: 40m
						        exp_samples: []
						      - expr: count by (alertstate) (max_over_time(ALERTS{alertname="LeaderElectionNoLeader",job="zombie"}[24m]))
						        eval_time: 24m
						        exp_samples: []
						      - expr: count by (instance, alertstate) (max_over_time(ALERTS{alertname="LeaderElectionReconcilingWithoutLease"}[40m]))
						        eval_time: 40m
						        exp_samples:
						          - labels: '{instance="a",alertstate="pending"}'
						            value: 1
						          - labels: '{instance="a",alertstate="firing"}'
						            value: 1
						""");
		assertThat(Promtool.testRules(test)).contains("SUCCESS");
	}

}
