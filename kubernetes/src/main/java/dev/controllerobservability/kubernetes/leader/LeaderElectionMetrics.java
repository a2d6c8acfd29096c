package dev.controllerobservability.kubernetes.leader;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code leader_election_master_status{name}} as Kubernetes components expose it: 1 while
 * this instance leads the election called {@code name}, 0 while it stands by. Call
 * {@link #standby(String)} when the instance joins an election and
 * {@link #leading(String)} / {@link #standby(String)} from the election's callbacks;
 * {@link LeaderElectionCallbacks} does that for fabric8 and the Java Operator SDK.
 */
public final class LeaderElectionMetrics {

	private final MeterRegistry registry;

	private final Map<String, AtomicInteger> status = new ConcurrentHashMap<>();

	/**
	 * Creates the metrics.
	 * @param registry where the gauges are registered
	 */
	public LeaderElectionMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Records that this instance leads the election.
	 * @param name the election's name, usually the lease name
	 */
	public void leading(String name) {
		status(name).set(1);
	}

	/**
	 * Records that this instance takes part in the election without leading it.
	 * @param name the election's name, usually the lease name
	 */
	public void standby(String name) {
		status(name).set(0);
	}

	/**
	 * Whether this instance leads the election, as last recorded.
	 * @param name the election's name
	 * @return whether it leads; {@code false} for an election never recorded
	 */
	public boolean isLeading(String name) {
		AtomicInteger value = this.status.get(name);
		return value != null && value.get() == 1;
	}

	private AtomicInteger status(String name) {
		return this.status.computeIfAbsent(name, (key) -> {
			AtomicInteger value = new AtomicInteger();
			Gauge.builder("leader.election.master.status", value, AtomicInteger::get)
				.description("Gauge of if the reporting system is master of the relevant lease, 0 indicates "
						+ "backup, 1 indicates master. 'name' is the string used to identify the lease.")
				.tag("name", key)
				.strongReference(true)
				.register(this.registry);
			return value;
		});
	}

}
