package dev.controllerobservability.demo.kubernetes;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.micrometer.core.instrument.Tags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.demo.BinPacker;
import dev.controllerobservability.demo.CloudProvider;
import dev.controllerobservability.demo.InsufficientCapacityException;
import dev.controllerobservability.demo.Node;
import dev.controllerobservability.demo.NodeClaim;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * Reconciles a {@code Provisioner}: packs its pending pods onto instance types
 * ({@code apply-packing}), launches a node per planned node through the simulated cloud
 * ({@code launch}) and binds each pod to its node ({@code bind}, recorded on the pod as
 * the {@value #NODE_ANNOTATION} annotation, so that nothing is scheduled for real). When
 * a launch fails the provisioner is reconciled again shortly ({@code requeue_after}). The
 * operator's own metrics are controller-runtime's; the operations are the controller's,
 * under its namespace. The status reports the generation reconciled and a {@code Ready}
 * condition ({@code False} after a round with launch failures), and
 * {@code karpenter_provisioner_launched_nodes} holds each provisioner's launched nodes:
 * per object, its series leaves with the provisioner.
 */
@ControllerConfiguration(name = "provisioner")
public class ProvisionerReconciler implements Reconciler<ProvisionerResource> {

	/**
	 * Label that puts a pod in a provisioner's care; its value is the provisioner's name.
	 */
	public static final String PROVISIONER_LABEL = "demo.controllerobservability.dev/provisioner";

	/** Annotation recording the node a pod was bound to. */
	public static final String NODE_ANNOTATION = "demo.controllerobservability.dev/node";

	private static final Logger logger = LoggerFactory.getLogger(ProvisionerReconciler.class);

	private static final Duration RETRY_LAUNCH_AFTER = Duration.ofSeconds(2);

	private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

	private static final BigDecimal MEBIBYTE = BigDecimal.valueOf(1024 * 1024);

	private final KubernetesClient client;

	private final ControllerOperations operations;

	private final CloudProvider cloud;

	private final ControllerMetrics metrics;

	private final BinPacker packer = new BinPacker();

	public ProvisionerReconciler(KubernetesClient client, ControllerOperations operations, CloudProvider cloud,
			ControllerMetrics metrics) {
		this.client = client;
		this.operations = operations;
		this.cloud = cloud;
		this.metrics = metrics;
	}

	@Override
	public List<EventSource<?, ProvisionerResource>> prepareEventSources(
			EventSourceContext<ProvisionerResource> context) {
		var pods = InformerEventSourceConfiguration.from(Pod.class, ProvisionerResource.class)
			.withLabelSelector(PROVISIONER_LABEL)
			.withSecondaryToPrimaryMapper(
					(Pod pod) -> Set.of(new ResourceID(pod.getMetadata().getLabels().get(PROVISIONER_LABEL),
							pod.getMetadata().getNamespace())))
			.build();
		return List.of(new InformerEventSource<>(pods, context));
	}

	@Override
	public UpdateControl<ProvisionerResource> reconcile(ProvisionerResource provisioner,
			Context<ProvisionerResource> context) {
		String name = provisioner.getMetadata().getName();
		List<dev.controllerobservability.demo.Pod> pending = context.getSecondaryResourcesAsStream(Pod.class)
			.filter(ProvisionerReconciler::isPending)
			.map((pod) -> demoPod(name, pod))
			.toList();
		ProvisionerResource.Status status = (provisioner.getStatus() != null) ? provisioner.getStatus()
				: new ProvisionerResource.Status();
		ObjectRef object = ObjectRef.of(provisioner.getKind(), provisioner.getMetadata().getNamespace(), name);
		this.metrics.gauge("provisioner_launched_nodes", object).set(status.getLaunchedNodes());
		if (pending.isEmpty()) {
			if (provisioner.getMetadata().getGeneration().equals(status.getObservedGeneration())) {
				return UpdateControl.noUpdate();
			}
			provisioner.setStatus(reconciled(provisioner, status, true));
			return UpdateControl.patchStatus(provisioner);
		}
		Tags tags = Tags.of("provisioner", name);
		boolean gpu = provisioner.getSpec() != null && provisioner.getSpec().isGpu();
		List<NodeClaim> claims = this.operations.observe("apply-packing", tags, () -> this.packer.pack(pending, gpu));
		List<String> bound = new ArrayList<>();
		int failures = 0;
		for (NodeClaim claim : claims) {
			Node node;
			try {
				node = this.cloud.launch(name, claim.instanceType());
			}
			catch (InsufficientCapacityException ex) {
				failures++;
				continue;
			}
			this.metrics.counter("nodes_launched_total", "provisioner", name, "zone", node.zone()).increment();
			status.setLaunchedNodes(status.getLaunchedNodes() + 1);
			for (dev.controllerobservability.demo.Pod pod : claim.pods()) {
				this.operations.observe("bind", tags, () -> bind(provisioner.getMetadata().getNamespace(), pod, node));
				this.metrics.counter("pods_bound_total", "provisioner", name).increment();
				bound.add(pod.name());
			}
		}
		status.setBoundPods(status.getBoundPods() + bound.size());
		status.setLaunchFailures(status.getLaunchFailures() + failures);
		provisioner.setStatus(reconciled(provisioner, status, failures == 0));
		this.metrics.gauge("provisioner_launched_nodes", object).set(status.getLaunchedNodes());
		this.metrics
			.counter("provisioning_rounds_total", "provisioner", name, "result",
					(failures > 0) ? "launch_failure" : "success")
			.increment();
		logger.info("provisioner={} pending={} nodes={} launch-failures={} bound={}", name, pending.size(),
				claims.size(), failures, bound.size());
		UpdateControl<ProvisionerResource> control = UpdateControl.patchStatus(provisioner);
		return (failures > 0) ? control.rescheduleAfter(RETRY_LAUNCH_AFTER) : control;
	}

	private static ProvisionerResource.Status reconciled(ProvisionerResource provisioner,
			ProvisionerResource.Status status, boolean ready) {
		status.setObservedGeneration(provisioner.getMetadata().getGeneration());
		String value = ready ? "True" : "False";
		boolean unchanged = status.getConditions()
			.stream()
			.anyMatch((condition) -> "Ready".equals(condition.getType()) && value.equals(condition.getStatus()));
		if (!unchanged) {
			status.getConditions().removeIf((condition) -> "Ready".equals(condition.getType()));
			status.getConditions()
				.add(new ConditionBuilder().withType("Ready")
					.withStatus(value)
					.withReason(ready ? "NodesLaunched" : "LaunchFailed")
					.withLastTransitionTime(java.time.Instant.now().toString())
					.build());
		}
		return status;
	}

	private void bind(String namespace, dev.controllerobservability.demo.Pod pod, Node node) {
		this.client.pods().inNamespace(namespace).withName(pod.name()).edit((current) -> {
			current.getMetadata().getAnnotations().put(NODE_ANNOTATION, node.name());
			return current;
		});
	}

	static boolean isPending(Pod pod) {
		Map<String, String> annotations = pod.getMetadata().getAnnotations();
		return (annotations == null || !annotations.containsKey(NODE_ANNOTATION))
				&& (pod.getSpec() == null || pod.getSpec().getNodeName() == null)
				&& pod.getMetadata().getDeletionTimestamp() == null;
	}

	static dev.controllerobservability.demo.Pod demoPod(String provisioner, Pod pod) {
		BigDecimal cpu = BigDecimal.ZERO;
		BigDecimal memory = BigDecimal.ZERO;
		if (pod.getSpec() != null) {
			for (var container : pod.getSpec().getContainers()) {
				Map<String, Quantity> requests = (container.getResources() != null)
						? container.getResources().getRequests() : null;
				if (requests != null) {
					cpu = cpu.add(amount(requests.get("cpu")));
					memory = memory.add(amount(requests.get("memory")));
				}
			}
		}
		return new dev.controllerobservability.demo.Pod(pod.getMetadata().getName(), provisioner,
				Math.max(1, cpu.multiply(THOUSAND).intValue()), Math.max(1, memory.divide(MEBIBYTE).intValue()));
	}

	private static BigDecimal amount(Quantity quantity) {
		return (quantity != null) ? quantity.getNumericalAmount() : BigDecimal.ZERO;
	}

}
