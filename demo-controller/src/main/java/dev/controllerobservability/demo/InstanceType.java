package dev.controllerobservability.demo;

import java.util.Comparator;
import java.util.List;

/**
 * A cloud instance type a node can be launched as.
 *
 * @param name the provider's name, such as {@code m5.large}
 * @param cpuMillis allocatable CPU in millicores
 * @param memoryMib allocatable memory in MiB
 * @param gpu whether it has GPUs
 */
public record InstanceType(String name, int cpuMillis, int memoryMib, boolean gpu) {

	/** The small catalogue the simulation launches from, smallest first. */
	public static final List<InstanceType> CATALOGUE = List.of(new InstanceType("m5.large", 2000, 8192, false),
			new InstanceType("m5.xlarge", 4000, 16384, false), new InstanceType("c5.2xlarge", 8000, 16384, false),
			new InstanceType("m5.4xlarge", 16000, 65536, false), new InstanceType("g4dn.xlarge", 4000, 16384, true),
			new InstanceType("p3.2xlarge", 8000, 61440, true));

	/**
	 * The smallest instance type of the catalogue that fits the load.
	 * @param cpuMillis CPU needed
	 * @param memoryMib memory needed
	 * @param gpu whether GPUs are needed
	 * @return the smallest fitting type, or {@code null} when none fits
	 */
	public static InstanceType smallestFitting(int cpuMillis, int memoryMib, boolean gpu) {
		return CATALOGUE.stream()
			.filter((type) -> type.gpu() == gpu && type.cpuMillis() >= cpuMillis && type.memoryMib() >= memoryMib)
			.min(Comparator.comparingInt(InstanceType::cpuMillis).thenComparingInt(InstanceType::memoryMib))
			.orElse(null);
	}

	/**
	 * The largest instance type of the catalogue for the kind of pods.
	 * @param gpu whether GPUs are needed
	 * @return the largest type
	 */
	public static InstanceType largest(boolean gpu) {
		return CATALOGUE.stream()
			.filter((type) -> type.gpu() == gpu)
			.max(Comparator.comparingInt(InstanceType::cpuMillis).thenComparingInt(InstanceType::memoryMib))
			.orElseThrow();
	}

}
