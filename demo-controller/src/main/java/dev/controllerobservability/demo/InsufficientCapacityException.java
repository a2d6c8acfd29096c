package dev.controllerobservability.demo;

/**
 * The simulated cloud had no capacity for an instance type in a zone.
 */
public class InsufficientCapacityException extends Exception {

	public InsufficientCapacityException(InstanceType type, String zone) {
		super("Insufficient capacity for " + type.name() + " in " + zone);
	}

}
