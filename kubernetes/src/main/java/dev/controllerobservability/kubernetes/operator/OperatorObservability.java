package dev.controllerobservability.kubernetes.operator;

import java.util.function.Consumer;
import java.util.function.Supplier;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;

import dev.controllerobservability.kubernetes.client.KubernetesClientMetrics;
import dev.controllerobservability.kubernetes.leader.LeaderElectionCallbacks;
import dev.controllerobservability.kubernetes.leader.LeaderElectionMetrics;

/**
 * Everything an operator needs to be observed, applied to its configuration in one go:
 * controller-runtime metrics, an instrumented Kubernetes client and, for operators that
 * run a leader election, the election status. Typical use:
 *
 * <pre>{@code
 * Operator operator = new Operator(observability.andThen((overrider) -> overrider
 *         .withLeaderElectionConfiguration(observability.observed(new LeaderElectionConfiguration("my-operator")))));
 * }</pre>
 */
public final class OperatorObservability implements Consumer<ConfigurationServiceOverrider> {

	private final ControllerRuntimeMetrics metrics;

	private final Supplier<KubernetesClient> client;

	private final KubernetesClientMetrics clientMetrics;

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
		this(metrics, null, client, leaderElection);
	}

	/**
	 * Creates the configurer that also counts the operator's API calls in
	 * {@code rest_client_*}, leaving the application's own client as it is.
	 * @param metrics the operator metrics
	 * @param clientMetrics counts the operator's API calls
	 * @param applicationClient supplies the application's client, or {@code null}: the
	 * operator then talks through a counted copy of it (same configuration and
	 * connections) and leaves it open when it stops; without one, through a counted
	 * client configured as fabric8 configures one by default, which it closes when it
	 * stops
	 * @param leaderElection the election status gauges
	 */
	public OperatorObservability(ControllerRuntimeMetrics metrics, KubernetesClientMetrics clientMetrics,
			Supplier<KubernetesClient> applicationClient, LeaderElectionMetrics leaderElection) {
		this.metrics = metrics;
		this.clientMetrics = clientMetrics;
		this.client = applicationClient;
		this.leaderElection = leaderElection;
	}

	/**
	 * Sets the operator's metrics and its Kubernetes client: the given one, which the
	 * operator then leaves open when it stops (whoever created the client closes it),
	 * counted when this configurer has {@link KubernetesClientMetrics}.
	 * @param overrider the operator's configuration
	 */
	@Override
	public void accept(ConfigurationServiceOverrider overrider) {
		overrider.withMetrics(this.metrics);
		KubernetesClient client = (this.client != null) ? this.client.get() : null;
		if (client != null) {
			overrider
				.withKubernetesClient((this.clientMetrics != null) ? this.clientMetrics.instrument(client) : client)
				.withCloseClientOnStop(false);
		}
		else if (this.clientMetrics != null) {
			overrider.withKubernetesClient(this.clientMetrics.instrument(new KubernetesClientBuilder()).build());
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
				configuration.getIdentity().orElse(null), LeaderElectionCallbacks.observed(this.leaderElection,
						configuration.getLeaseName(), configuration.getLeaderCallbacks().orElse(null)),
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
