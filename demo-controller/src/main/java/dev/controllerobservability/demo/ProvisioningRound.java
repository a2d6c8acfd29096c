package dev.controllerobservability.demo;

import java.util.List;

import io.micrometer.core.instrument.Tags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.controllerobservability.operations.ControllerOperations;

/**
 * One provisioning round of one provisioner: take the pending pods, pack them
 * ({@code apply-packing}), launch a node per planned node ({@code launch}) and bind the
 * pods ({@code bind}). Pods whose node failed to launch wait for the next round.
 */
@Component
public class ProvisioningRound {

	private static final Logger logger = LoggerFactory.getLogger(ProvisioningRound.class);

	private final ControllerOperations operations;

	private final PendingPods pendingPods;

	private final BinPacker packer = new BinPacker();

	private final CloudProvider cloud;

	private final Binder binder;

	public ProvisioningRound(ControllerOperations operations, PendingPods pendingPods, CloudProvider cloud,
			Binder binder) {
		this.operations = operations;
		this.pendingPods = pendingPods;
		this.cloud = cloud;
		this.binder = binder;
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
			for (Pod pod : claim.pods()) {
				this.operations.observe("bind", tags, () -> this.binder.bind(pod, node));
				bound++;
			}
		}
		logger.info("provisioner={} round={} pending={} nodes={} launched={} launch-failures={} bound={} requeued={}",
				provisioner, round, pods.size(), claims.size(), launched, failed, bound, pods.size() - bound);
	}

}
