package dev.controllerobservability.demo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * First-fit decreasing bin packing of pods onto instance types: the largest pods first,
 * each onto the first planned node with room, a new node of the largest type when none
 * has room; every node then shrinks to the smallest type that fits its pods.
 */
public class BinPacker {

	/**
	 * Packs pods onto nodes.
	 * @param pods pending pods
	 * @param gpu whether the pods need GPU instance types
	 * @return the nodes to launch, each with its pods
	 */
	public List<NodeClaim> pack(List<Pod> pods, boolean gpu) {
		InstanceType largest = InstanceType.largest(gpu);
		List<Bin> bins = new ArrayList<>();
		List<Pod> sorted = pods.stream()
			.sorted(Comparator.comparingInt(Pod::cpuMillis).thenComparingInt(Pod::memoryMib).reversed())
			.toList();
		for (Pod pod : sorted) {
			if (pod.cpuMillis() > largest.cpuMillis() || pod.memoryMib() > largest.memoryMib()) {
				throw new IllegalArgumentException("Pod " + pod.name() + " fits no instance type");
			}
			Bin bin = bins.stream().filter((candidate) -> candidate.fits(pod, largest)).findFirst().orElse(null);
			if (bin == null) {
				bin = new Bin();
				bins.add(bin);
			}
			bin.add(pod);
		}
		return bins.stream()
			.map((planned) -> new NodeClaim(InstanceType.smallestFitting(planned.cpuMillis, planned.memoryMib, gpu),
					List.copyOf(planned.pods)))
			.toList();
	}

	private static final class Bin {

		private final List<Pod> pods = new ArrayList<>();

		private int cpuMillis;

		private int memoryMib;

		boolean fits(Pod pod, InstanceType type) {
			return this.cpuMillis + pod.cpuMillis() <= type.cpuMillis()
					&& this.memoryMib + pod.memoryMib() <= type.memoryMib();
		}

		void add(Pod pod) {
			this.pods.add(pod);
			this.cpuMillis += pod.cpuMillis();
			this.memoryMib += pod.memoryMib();
		}

	}

}
