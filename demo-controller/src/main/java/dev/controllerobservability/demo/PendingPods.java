package dev.controllerobservability.demo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.stereotype.Component;

/**
 * The simulated pods waiting for a node, one queue per provisioner.
 */
@Component
public class PendingPods {

	private final Map<String, Queue<Pod>> queues = new ConcurrentHashMap<>();

	private final AtomicLong created = new AtomicLong();

	/**
	 * Lets between 0 and {@code max} new pods arrive for a provisioner.
	 * @param provisioner the provisioner
	 * @param max most pods to arrive
	 * @return how many arrived
	 */
	public int arrive(String provisioner, int max) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int count = random.nextInt(max + 1);
		for (int i = 0; i < count; i++) {
			int cpu = 250 * random.nextInt(1, 13);
			int memory = 512 * random.nextInt(1, 13);
			queue(provisioner).add(new Pod("pod-" + this.created.incrementAndGet(), provisioner, cpu, memory));
		}
		return count;
	}

	/**
	 * Takes every pending pod of a provisioner.
	 * @param provisioner the provisioner
	 * @return the pods, oldest first
	 */
	public List<Pod> drain(String provisioner) {
		List<Pod> pods = new ArrayList<>();
		Queue<Pod> queue = queue(provisioner);
		for (Pod pod = queue.poll(); pod != null; pod = queue.poll()) {
			pods.add(pod);
		}
		return pods;
	}

	/**
	 * Puts pods back, for example after their node failed to launch.
	 * @param pods the pods
	 */
	public void requeue(Collection<Pod> pods) {
		pods.forEach((pod) -> queue(pod.provisioner()).add(pod));
	}

	/**
	 * Number of pods waiting for a provisioner.
	 * @param provisioner the provisioner
	 * @return the queue length
	 */
	public int count(String provisioner) {
		return queue(provisioner).size();
	}

	private Queue<Pod> queue(String provisioner) {
		return this.queues.computeIfAbsent(provisioner, (name) -> new ConcurrentLinkedQueue<>());
	}

}
