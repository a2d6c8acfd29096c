package dev.controllerobservability.autoconfigure;

import dev.controllerobservability.stability.StabilityLevel;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings of one operation.
 */
public class OperationDefinitionProperties {

	/**
	 * Name part between the namespace and the operation, snake_case, such as
	 * "allocation_controller".
	 */
	private String subsystem;

	/**
	 * Help text of the operation's duration histogram.
	 */
	private String description;

	/**
	 * Bucket boundaries of this operation's duration histogram, in seconds, strictly
	 * increasing. Defaults to duration-buckets.
	 */
	private List<Double> buckets = new ArrayList<>();

	/**
	 * Stability level shown in the help text of the operation's metrics: INTERNAL, ALPHA,
	 * BETA or STABLE.
	 */
	private StabilityLevel stability;

	public String getSubsystem() {
		return this.subsystem;
	}

	public void setSubsystem(String subsystem) {
		this.subsystem = subsystem;
	}

	public String getDescription() {
		return this.description;
	}

	public void setDescription(String description) {
		this.description = description;
	}

	public List<Double> getBuckets() {
		return this.buckets;
	}

	public void setBuckets(List<Double> buckets) {
		this.buckets = buckets;
	}

	public StabilityLevel getStability() {
		return this.stability;
	}

	public void setStability(StabilityLevel stability) {
		this.stability = stability;
	}

}
