package dev.controllerobservability.demo.kubernetes;

import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

import dev.controllerobservability.demo.DemoProperties;

/**
 * On the embedded API server only: lets pending pods arrive for each configured
 * provisioner every round interval, and removes pods once bound (they have "run"), so the
 * API server's store stays small. {@link #createProvisioners} creates the
 * {@code Provisioner} resources they are for.
 */
class PodArrivals implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(PodArrivals.class);

	private final KubernetesClient client;

	private final DemoProperties properties;

	private final AtomicLong created = new AtomicLong();

	private volatile ScheduledExecutorService executor;

	PodArrivals(KubernetesClient client, DemoProperties properties) {
		this.client = client;
		this.properties = properties;
	}

	/**
	 * Creates, or updates, a {@code Provisioner} per configured provisioner.
	 * @param client a client of the API server
	 * @param properties the demo's provisioners and namespace
	 */
	static void createProvisioners(KubernetesClient client, DemoProperties properties) {
		String namespace = properties.getKubernetes().getNamespace();
		properties.getProvisioners().forEach((name, settings) -> {
			ProvisionerResource provisioner = new ProvisionerResource();
			provisioner.getMetadata().setName(name);
			provisioner.getMetadata().setNamespace(namespace);
			ProvisionerResource.Spec spec = new ProvisionerResource.Spec();
			spec.setGpu(settings.isGpu());
			provisioner.setSpec(spec);
			client.resource(provisioner).createOr((existing) -> existing.update());
		});
	}

	@Override
	public void start() {
		String namespace = this.properties.getKubernetes().getNamespace();
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "pod-arrivals");
			thread.setDaemon(true);
			return thread;
		});
		long interval = this.properties.getRoundInterval().toMillis();
		executor.scheduleWithFixedDelay(() -> arrive(namespace), 0, interval, TimeUnit.MILLISECONDS);
		this.executor = executor;
		logger.info("Embedded API server: pods arrive for {} every {} ms", this.properties.getProvisioners().keySet(),
				interval);
	}

	private void arrive(String namespace) {
		try {
			this.client.pods()
				.inNamespace(namespace)
				.withLabel(ProvisionerReconciler.PROVISIONER_LABEL)
				.list()
				.getItems()
				.stream()
				.filter((pod) -> !ProvisionerReconciler.isPending(pod))
				.forEach((pod) -> this.client.resource(pod).delete());
			ThreadLocalRandom random = ThreadLocalRandom.current();
			for (String provisioner : this.properties.getProvisioners().keySet()) {
				int count = random.nextInt(this.properties.getMaxArrivalsPerRound() + 1);
				for (int i = 0; i < count; i++) {
					this.client.resource(pod(namespace, provisioner, random)).create();
				}
			}
		}
		catch (RuntimeException ex) {
			if (this.executor != null) {
				logger.warn("Pods could not arrive this round", ex);
			}
		}
	}

	private Pod pod(String namespace, String provisioner, ThreadLocalRandom random) {
		return new PodBuilder().withNewMetadata()
			.withName("pod-" + this.created.incrementAndGet())
			.withNamespace(namespace)
			.withLabels(Map.of(ProvisionerReconciler.PROVISIONER_LABEL, provisioner))
			.endMetadata()
			.withNewSpec()
			.addNewContainer()
			.withName("app")
			.withImage("app")
			.withNewResources()
			.addToRequests("cpu", new Quantity((250 * random.nextInt(1, 13)) + "m"))
			.addToRequests("memory", new Quantity((512 * random.nextInt(1, 13)) + "Mi"))
			.endResources()
			.endContainer()
			.endSpec()
			.build();
	}

	@Override
	public void stop() {
		ScheduledExecutorService executor = this.executor;
		if (executor != null) {
			this.executor = null;
			executor.shutdownNow();
		}
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

	@Override
	public int getPhase() {
		// Start after the operator and stop before it.
		return KubernetesMode.OperatorLifecycle.PHASE + 1;
	}

}
