package dev.controllerobservability.demo;

import java.util.List;

import io.micrometer.core.instrument.Tags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * One provisioning round of one provisioner: take the pending pods, pack them
 * ({@code apply-packing}), launch a node per planned node ({@code launch}) and bind the
 * pods ({@code bind}). Pods whose node failed to launch wait for the next round. Declared
 * catalog metrics count launched and terminated nodes, bound pods, packing efficiency and
 * rounds by result.
 */
@Component
public class ProvisioningRound {

	private static final Logger logger = LoggerFactory.getLogger(ProvisioningRound.class);

	private final ControllerOperations operations;

	private final PendingPods pendingPods;

	private final BinPacker packer = new BinPacker();

	private final CloudProvider cloud;

	private final Binder binder;

	private final Cluster cluster;

	private final ControllerMetrics metrics;

	public ProvisioningRound(ControllerOperations operations, PendingPods pendingPods, CloudProvider cloud,
			Binder binder, Cluster cluster, ControllerMetrics metrics) {
		this.operations = operations;
		this.pendingPods = pendingPods;
		this.cloud = cloud;
		this.binder = binder;
		this.cluster = cluster;
		this.metrics = metrics;
	}

	/**
	 * Runs one round.
	 * @param provisioner the provisioner's name
	 * @param settings its settings
	 * @param round the round number, for the log
	 */
	public void run(String provisioner, DemoProperties.Provisioner settings, long round) {
		Tags tags = Tags.of("provisioner", provisioner);
		List<Pod> pods = this.pendingPods.drain(provisioner);
		if (pods.isEmpty()) {
			this.metrics.counter("provisioning_rounds_total", "provisioner", provisioner, "result", "idle").increment();
			logger.info("provisioner={} round={} pending=0", provisioner, round);
			return;
		}
		List<NodeClaim> claims = this.operations.observe("apply-packing", tags,
				() -> this.packer.pack(pods, settings.isGpu()));
		int launched = 0;
		int failed = 0;
		int bound = 0;
		for (NodeClaim claim : claims) {
			Node node;
			try {
				node = this.cloud.launch(provisioner, claim.instanceType());
				launched++;
			}
			catch (InsufficientCapacityException ex) {
				failed++;
				this.pendingPods.requeue(claim.pods());
				continue;
			}
			this.metrics.counter("nodes_launched_total", "provisioner", provisioner, "zone", node.zone()).increment();
			this.metrics.histogram("pods_per_node", "provisioner", provisioner).observe(claim.pods().size());
			this.metrics.histogram("packing_efficiency_ratio", "provisioner", provisioner).observe(efficiency(claim));
			for (Pod pod : claim.pods()) {
				this.operations.observe("bind", tags, () -> this.binder.bind(pod, node));
				this.metrics.counter("pods_bound_total", "provisioner", provisioner).increment();
				bound++;
			}
			this.cluster.add(provisioner, node, claim.pods());
		}
		this.metrics
			.counter("provisioning_rounds_total", "provisioner", provisioner, "result",
					(failed > 0) ? "launch_failure" : "success")
			.increment();
		logger.info("provisioner={} round={} pending={} nodes={} launched={} launch-failures={} bound={} requeued={}",
				provisioner, round, pods.size(), claims.size(), launched, failed, bound, pods.size() - bound);
	}

	/**
	 * Terminates the provisioner's oldest node, as consolidation or a spot interruption
	 * would, and puts its pods back to pending.
	 * @param provisioner the provisioner
	 */
	public void terminateOldestNode(String provisioner) {
		Cluster.RunningNode terminated = this.cluster.terminateOldest(provisioner);
		if (terminated != null) {
			this.metrics.counter("nodes_terminated_total", "provisioner", provisioner, "zone", terminated.node().zone())
				.increment();
			this.pendingPods.requeue(terminated.podsToReschedule());
		}
	}

	private static double efficiency(NodeClaim claim) {
		int requested = claim.pods().stream().mapToInt(Pod::cpuMillis).sum();
		return (double) requested / claim.instanceType().cpuMillis();
	}

}
