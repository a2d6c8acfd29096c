package dev.controllerobservability.demo;

import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs a provisioning loop per configured provisioner, each on its own thread, and lets
 * new pods arrive before every round. Stops with the application.
 */
@Component
@ConditionalOnProperty(name = "demo.mode", havingValue = "simulation", matchIfMissing = true)
public class ProvisioningLoops implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(ProvisioningLoops.class);

	private final DemoProperties properties;

	private final PendingPods pendingPods;

	private final ProvisioningRound round;

	private final Cluster cluster;

	private volatile ScheduledExecutorService executor;

	public ProvisioningLoops(DemoProperties properties, PendingPods pendingPods, ProvisioningRound round,
			Cluster cluster) {
		this.properties = properties;
		this.pendingPods = pendingPods;
		this.round = round;
		this.cluster = cluster;
	}

	@Override
	public void start() {
		Map<String, DemoProperties.Provisioner> provisioners = this.properties.getProvisioners();
		if (provisioners.isEmpty()) {
			logger.warn("No provisioners configured under demo.provisioners; nothing to simulate");
			return;
		}
		ScheduledExecutorService executor = Executors.newScheduledThreadPool(provisioners.size(), (task) -> {
			Thread thread = new Thread(task, "provisioning-loop");
			thread.setDaemon(true);
			return thread;
		});
		long interval = this.properties.getRoundInterval().toMillis();
		provisioners.forEach((name, settings) -> {
			AtomicLong rounds = new AtomicLong();
			executor.scheduleWithFixedDelay(() -> runRound(name, settings, rounds.incrementAndGet()), 0, interval,
					TimeUnit.MILLISECONDS);
		});
		this.executor = executor;
		logger.info("Provisioning loops started for {} every {} ms", provisioners.keySet(), interval);
	}

	private void runRound(String name, DemoProperties.Provisioner settings, long number) {
		try {
			this.pendingPods.arrive(name, this.properties.getMaxArrivalsPerRound());
			if (this.cluster.nodeCount(name) > this.properties.getMaxNodesPerProvisioner()
					|| ThreadLocalRandom.current().nextDouble() < settings.getInterruptionRate()) {
				this.round.terminateOldestNode(name);
			}
			this.round.run(name, settings, number);
		}
		catch (RuntimeException ex) {
			// A failed round must not end the loop, as a controller's work queue retries.
			logger.error("provisioner={} round={} failed", name, number, ex);
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService executor = this.executor;
		this.executor = null;
		if (executor != null) {
			executor.shutdownNow();
			try {
				executor.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

}
