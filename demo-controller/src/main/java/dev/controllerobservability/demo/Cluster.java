package dev.controllerobservability.demo;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import org.springframework.stereotype.Component;

/**
 * The simulated cluster's launched nodes and the pods running on them, per provisioner.
 */
@Component
public class Cluster {

	private final Map<String, Deque<RunningNode>> nodes = new ConcurrentHashMap<>();

	/**
	 * Records a launched node with the pods bound to it.
	 * @param provisioner the provisioner that launched it
	 * @param node the node
	 * @param pods the pods running on it
	 */
	public void add(String provisioner, Node node, List<Pod> pods) {
		this.nodes.computeIfAbsent(provisioner, (name) -> new ConcurrentLinkedDeque<>())
			.add(new RunningNode(node, List.copyOf(pods)));
	}

	/**
	 * Terminates a provisioner's oldest node, as consolidation or a spot interruption
	 * would.
	 * @param provisioner the provisioner
	 * @return the terminated node and its pods, or {@code null} when it has none
	 */
	public RunningNode terminateOldest(String provisioner) {
		Deque<RunningNode> running = this.nodes.get(provisioner);
		return (running != null) ? running.pollFirst() : null;
	}

	/**
	 * Number of nodes a provisioner runs.
	 * @param provisioner the provisioner
	 * @return the node count
	 */
	public int nodeCount(String provisioner) {
		Deque<RunningNode> running = this.nodes.get(provisioner);
		return (running != null) ? running.size() : 0;
	}

	/**
	 * Running pods per provisioner.
	 * @return pod counts by provisioner
	 */
	public Map<String, Integer> runningPods() {
		Map<String, Integer> counts = new ConcurrentHashMap<>();
		this.nodes.forEach((provisioner, running) -> counts.put(provisioner,
				running.stream().mapToInt((node) -> node.pods().size()).sum()));
		return counts;
	}

	/**
	 * A node and the pods on it.
	 *
	 * @param node the node
	 * @param pods its pods
	 */
	public record RunningNode(Node node, List<Pod> pods) {

		List<Pod> podsToReschedule() {
			return new ArrayList<>(this.pods);
		}

	}

}
