package dev.controllerobservability.demo;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.info.BuildProperties;
import org.springframework.stereotype.Component;

import dev.controllerobservability.catalog.ControllerMetrics;

/**
 * Metrics computed from controller state at scrape time: pending pods per provisioner
 * (gauges backed by the queues), pods by phase (a collector), and the build information.
 */
@Component
public class ClusterMetrics implements SmartInitializingSingleton {

	private final ControllerMetrics metrics;

	private final DemoProperties properties;

	private final PendingPods pendingPods;

	private final Cluster cluster;

	private final ObjectProvider<BuildProperties> build;

	public ClusterMetrics(ControllerMetrics metrics, DemoProperties properties, PendingPods pendingPods,
			Cluster cluster, ObjectProvider<BuildProperties> build) {
		this.metrics = metrics;
		this.properties = properties;
		this.pendingPods = pendingPods;
		this.cluster = cluster;
		this.build = build;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (String provisioner : this.properties.getProvisioners().keySet()) {
			this.metrics.gauge("pending_pods", this.pendingPods, (pods) -> pods.count(provisioner), "provisioner",
					provisioner);
		}
		this.metrics.collect("pods_by_phase", (samples) -> {
			for (String provisioner : this.properties.getProvisioners().keySet()) {
				samples.add(this.pendingPods.count(provisioner), "provisioner", provisioner, "phase", "Pending");
			}
			this.cluster.runningPods()
				.forEach(
						(provisioner, running) -> samples.add(running, "provisioner", provisioner, "phase", "Running"));
		});
		BuildProperties buildProperties = this.build.getIfAvailable();
		this.metrics.info("build_info", "version",
				(buildProperties != null) ? buildProperties.getVersion() : "unknown");
	}

}
