package dev.controllerobservability.internal.rules;

import java.util.List;

import dev.controllerobservability.rules.AlertRule;

/**
 * The built-in alerts on {@code leader_election_master_status}, per election and per
 * controller (every label but the replica's target labels):
 *
 * <pre>
 * LeaderElectionNoLeader:             sum without (instance, pod) (max_over_time(leader_election_master_status[5m])) == 0
 *                                       and sum without (instance, pod) (leader_election_master_status offset 5m) &gt;= 0
 * LeaderElectionReconcilingWithoutLease: sum by (job, instance, pod) (increase(controller_runtime_reconcile_total[5m] offset 1m)) &gt; 0
 *                                       and on (job, instance, pod) max by (job, instance, pod) (max_over_time(leader_election_master_status[6m])) == 0
 * </pre>
 *
 * The window is fixed at 5m, apart from the rate window: a killed leader's last sample of
 * 1 stays in it while the lease expires and a successor takes it (a lease duration plus a
 * retry period and a scrape interval, seconds to a minute), so a failover never makes the
 * no-leader alert even pending. The {@code offset} term keeps it quiet during the first
 * window of an election, before a first leader could be seen over a whole window.
 */
public final class LeaderElectionRules {

	/** The window over which a replica counts as having led. */
	public static final String WINDOW = "5m";

	/** How far back the reconciles are taken. */
	private static final String LAG = "1m";

	/**
	 * The window over which a reconciling replica must have led: the reconciles' and the
	 * lag.
	 */
	private static final String STATUS_WINDOW = "6m";

	/** The family telling which replica leads. */
	public static final String STATUS = "leader_election_master_status";

	private static final String RECONCILES = "controller_runtime_reconcile_total";

	/** The families the no-leader alert and the leader panel read. */
	public static final List<String> NO_LEADER_READ = List.of(STATUS);

	/** The families the reconciling-without-lease alert reads. */
	public static final List<String> RECONCILING_WITHOUT_LEASE_READ = List.of(STATUS, RECONCILES);

	private static final String DOCS = "docs/operations.md, section Replicas and high availability";

	private LeaderElectionRules() {
	}

	/**
	 * The leader count of each election, summed over the replicas: 1 while one leads.
	 * @param matchers further label matchers, such as {@code job=~"$job"}, or empty
	 * @return the PromQL
	 */
	public static String leaders(String matchers) {
		return "sum by (name) (" + STATUS + selector(matchers) + ")";
	}

	/**
	 * The replicas leading, one series per election and replica that leads it.
	 * @param matchers further label matchers, or empty
	 * @return the PromQL
	 */
	public static String leading(String matchers) {
		return STATUS + selector(matchers) + " == 1";
	}

	/**
	 * The elections no replica has led over the whole window, once the election has been
	 * observed for a window.
	 * @param matchers further label matchers, or empty
	 * @return the PromQL
	 */
	public static String noLeader(String matchers) {
		String status = STATUS + selector(matchers);
		return ResourceStateRules.sumOverReplicas("max_over_time(" + status + "[" + WINDOW + "])") + " == 0 and "
				+ ResourceStateRules.sumOverReplicas(status + " offset " + WINDOW) + " >= 0";
	}

	/**
	 * The replicas that reconciled over the window without having led any election in it.
	 * @param matchers further label matchers, or empty
	 * @return the PromQL
	 */
	public static String reconcilingWithoutLease(String matchers) {
		String selector = selector(matchers);
		// By the target labels alone: a common tag may be on one family and not the
		// other, and the agent's external labels fill in only where a series lacks them.
		String replica = "(job, " + ResourceStateRules.REPLICA_LABELS + ")";
		// The reconciles are taken a minute back: a new leader's first reconciles may
		// reach the store before its gauge's 1 does, as remote write sends in shards.
		return "sum by " + replica + " (increase(" + RECONCILES + selector + "[" + WINDOW + "] offset " + LAG
				+ ")) > 0 and on " + replica + " max by " + replica + " (max_over_time(" + STATUS + selector + "["
				+ STATUS_WINDOW + "])) == 0";
	}

	private static String selector(String matchers) {
		return matchers.isEmpty() ? "" : "{" + matchers + "}";
	}

	/**
	 * Adds the alerts switched on.
	 * @param settings the alerts
	 * @param alerts where alerts go
	 */
	public static void add(LeaderElectionRuleSettings settings, List<AlertRule> alerts) {
		ResourceStateRuleSettings.Alert noLeader = settings.noLeader();
		if (noLeader != null) {
			alerts.add(new AlertRule("LeaderElectionNoLeader", noLeader(""), noLeader.forDuration(),
					noLeader.severity().toString(), "No replica has led election {{ $labels.name }} for " + WINDOW,
					"No replica reported leader_election_master_status 1 over the last " + WINDOW
							+ ": its controllers run nowhere. A replica that lost its lease while alive does not "
							+ "run for it again; restart the replicas. See " + DOCS + ".",
					null, null, null));
		}
		ResourceStateRuleSettings.Alert zombie = settings.reconcilingWithoutLease();
		if (zombie != null) {
			alerts.add(new AlertRule("LeaderElectionReconcilingWithoutLease", reconcilingWithoutLease(""),
					zombie.forDuration(), zombie.severity().toString(),
					"{{ $labels.instance }} reconciles without holding the lease",
					"{{ $value | humanize }} reconciles between " + STATUS_WINDOW + " and " + LAG
							+ " ago on a replica that led no election since: "
							+ "it kept running its controllers after losing its lease (Java Operator SDK with "
							+ "exit-on-stop-leading false), doubling the leader's work. Restart it. See " + DOCS + ".",
					null, null, null));
		}
	}

}
