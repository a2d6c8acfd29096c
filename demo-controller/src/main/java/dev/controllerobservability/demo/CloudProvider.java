package dev.controllerobservability.demo;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.stereotype.Component;

import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.OperationTag;

/**
 * A simulated cloud: launching a node takes a random latency and fails with the
 * provisioner's configured rate. Timed through {@link ObservedOperation}.
 */
@Component
public class CloudProvider {

	private static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");

	private final DemoProperties properties;

	private final AtomicLong launched = new AtomicLong();

	public CloudProvider(DemoProperties properties) {
		this.properties = properties;
	}

	/**
	 * Launches a node.
	 * @param provisioner the provisioner asking, which sets the failure rate
	 * @param type the instance type to launch
	 * @return the launched node
	 * @throws InsufficientCapacityException when the simulated cloud has no capacity
	 */
	@ObservedOperation("launch")
	public Node launch(@OperationTag("provisioner") String provisioner, InstanceType type)
			throws InsufficientCapacityException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		String zone = ZONES.get(random.nextInt(ZONES.size()));
		sleep(randomLatency(random));
		DemoProperties.Provisioner settings = this.properties.getProvisioners().get(provisioner);
		double failureRate = (settings != null) ? settings.getLaunchFailureRate() : 0;
		if (random.nextDouble() < failureRate) {
			throw new InsufficientCapacityException(type, zone);
		}
		return new Node(provisioner + "-" + this.launched.incrementAndGet(), type, zone);
	}

	private Duration randomLatency(ThreadLocalRandom random) {
		long min = this.properties.getMinLaunchLatency().toMillis();
		long max = Math.max(min, this.properties.getMaxLaunchLatency().toMillis());
		return Duration.ofMillis(random.nextLong(min, max + 1));
	}

	static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
