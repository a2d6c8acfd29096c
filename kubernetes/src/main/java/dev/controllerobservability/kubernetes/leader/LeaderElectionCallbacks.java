package dev.controllerobservability.kubernetes.leader;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;

/**
 * fabric8 {@link LeaderCallbacks} (which the Java Operator SDK's leader election also
 * takes) that keep {@code leader_election_master_status} up to date before calling the
 * application's own callbacks.
 */
public final class LeaderElectionCallbacks {

	private LeaderElectionCallbacks() {
	}

	/**
	 * Wraps callbacks. The election is recorded as standing by at once.
	 * @param metrics the status gauges
	 * @param name the election's name, usually the lease name
	 * @param delegate the application's callbacks, or {@code null}
	 * @return callbacks that record the status, then call {@code delegate}
	 */
	public static LeaderCallbacks observed(LeaderElectionMetrics metrics, String name, LeaderCallbacks delegate) {
		metrics.standby(name);
		return new LeaderCallbacks(() -> {
			metrics.leading(name);
			if (delegate != null) {
				delegate.onStartLeading();
			}
		}, () -> {
			metrics.standby(name);
			if (delegate != null) {
				delegate.onStopLeading();
			}
		}, (leader) -> {
			if (delegate != null) {
				delegate.onNewLeader(leader);
			}
		});
	}

}
