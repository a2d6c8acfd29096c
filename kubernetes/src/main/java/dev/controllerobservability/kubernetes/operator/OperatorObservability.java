package dev.controllerobservability.kubernetes.operator;

import java.util.function.Consumer;
import java.util.function.Supplier;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;

import dev.controllerobservability.kubernetes.leader.LeaderElectionCallbacks;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;

/**
 * Everything an operator needs to be observed, applied to its configuration in one go:
 * controller-runtime metrics, an instrumented Kubernetes client and, for operators that
 * run a leader election, the election status. Typical use:
 * <pre>{@code
 * Operator operator = new Operator(observability.andThen((overrider) -> overrider
 *         .withLeaderElectionConfiguration(observability.observed(new LeaderElectionConfiguration("my-operator")))));
 * }</pre>
 */
public final class OperatorObservability implements Consumer<ConfigurationServiceOverrider> {

	private final ControllerRuntimeMetrics metrics;

	private final Supplier<KubernetesClient> client;

	private final LeaderElectionMetrics leaderElection;

	/**
	 * Creates the configurer.
	 * @param metrics the operator metrics
	 * @param client supplies the instrumented client the operator should use when it is
	 * configured, or {@code null} to leave the operator's client alone
	 * @param leaderElection the election status gauges
	 */
	public OperatorObservability(ControllerRuntimeMetrics metrics, Supplier<KubernetesClient> client,
			LeaderElectionMetrics leaderElection) {
		this.metrics = metrics;
		this.client = client;
		this.leaderElection = leaderElection;
	}

	/**
	 * Sets the operator's metrics and, when one was given, its Kubernetes client, which
	 * the operator then leaves open when it stops: whoever created the client closes it.
	 * @param overrider the operator's configuration
	 */
	@Override
	public void accept(ConfigurationServiceOverrider overrider) {
		overrider.withMetrics(this.metrics);
		KubernetesClient client = (this.client != null) ? this.client.get() : null;
		if (client != null) {
			overrider.withKubernetesClient(client).withCloseClientOnStop(false);
		}
	}

	/**
	 * A copy of a leader election configuration whose callbacks also keep
	 * {@code leader_election_master_status{name="<lease name>"}} up to date (0 from now
	 * on, 1 while leading).
	 * @param configuration the operator's leader election
	 * @return the same election, observed
	 */
	public LeaderElectionConfiguration observed(LeaderElectionConfiguration configuration) {
		return new LeaderElectionConfiguration(configuration.getLeaseName(),
				configuration.getLeaseNamespace().orElse(null), configuration.getLeaseDuration(),
				configuration.getRenewDeadline(), configuration.getRetryPeriod(),
				configuration.getIdentity().orElse(null),
				LeaderElectionCallbacks.observed(this.leaderElection, configuration.getLeaseName(),
						configuration.getLeaderCallbacks().orElse(null)),
				configuration.isExitOnStopLeading());
	}

	/**
	 * The operator metrics, to combine with others through the SDK's
	 * {@code AggregatedMetrics}.
	 * @return the controller-runtime metrics
	 */
	public ControllerRuntimeMetrics metrics() {
		return this.metrics;
	}

}
