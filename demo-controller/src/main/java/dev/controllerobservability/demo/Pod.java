package dev.controllerobservability.demo;

/**
 * A pending pod waiting for a node.
 *
 * @param name pod name
 * @param provisioner the provisioner responsible for it
 * @param cpuMillis requested CPU in millicores
 * @param memoryMib requested memory in MiB
 */
public record Pod(String name, String provisioner, int cpuMillis, int memoryMib) {
}
