package dev.controllerobservability.demo;

/**
 * A node the cloud launched.
 *
 * @param name node name
 * @param instanceType its instance type
 * @param zone the availability zone it landed in
 */
public record Node(String name, InstanceType instanceType, String zone) {
}
