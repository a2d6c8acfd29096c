package dev.controllerobservability.internal.rules;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.settings.Setting;

/**
 * Which built-in alerts read {@code leader_election_master_status}, each checked when
 * created: {@code RuleSet.Builder} and the Spring Boot properties both create them.
 *
 * @param noLeader alert when no replica has led an election over the window, or
 * {@code null}
 * @param reconcilingWithoutLease alert when a replica reconciles without having led over
 * the window, or {@code null}
 */
public record LeaderElectionRuleSettings(ResourceStateRuleSettings.@Nullable Alert noLeader,
		ResourceStateRuleSettings.@Nullable Alert reconcilingWithoutLease) {

	/** No leader-election alerts. */
	public static final LeaderElectionRuleSettings NONE = new LeaderElectionRuleSettings(null, null);

	/** The settings of {@link #noLeader}. */
	public static final Setting NO_LEADER = new Setting("kubernetes.leader-election.alerts.no-leader",
			"RuleSet.Builder.leaderElectionNoLeaderAlert(…)");

	/** The settings of {@link #reconcilingWithoutLease}. */
	public static final Setting RECONCILING_WITHOUT_LEASE = new Setting(
			"kubernetes.leader-election.alerts.reconciling-without-lease",
			"RuleSet.Builder.reconcilingWithoutLeaseAlert(…)");

}
