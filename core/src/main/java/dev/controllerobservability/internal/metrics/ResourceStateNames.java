package dev.controllerobservability.internal.metrics;

import java.util.List;

/**
 * The declared names and labels of the resource state metrics, which the operator
 * integration records and the rules and the dashboard read: exposed with the controller's
 * namespace in front, such as {@code karpenter_resource_generation}. The names follow
 * kube-state-metrics ({@code kube_pod_status_condition},
 * {@code kube_deployment_metadata_generation}), its {@code _created} spelt
 * {@code _created_timestamp_seconds} because {@code _created} is a reserved suffix here.
 */
public final class ResourceStateNames {

	/** One series per condition type and status value: 1 for the current status. */
	public static final String STATUS_CONDITION = "resource_status_condition";

	/** {@code metadata.generation}. */
	public static final String GENERATION = "resource_generation";

	/** {@code status.observedGeneration}. */
	public static final String OBSERVED_GENERATION = "resource_observed_generation";

	/** {@code metadata.creationTimestamp}, in Unix seconds. */
	public static final String CREATED = "resource_created_timestamp_seconds";

	/** Label of {@link #STATUS_CONDITION} that holds the condition's type. */
	public static final String TYPE_LABEL = "type";

	/** Label of {@link #STATUS_CONDITION} that holds a status value. */
	public static final String STATUS_LABEL = "status";

	/** The condition type whose status the not-ready alert and panel read. */
	public static final String READY = "Ready";

	/** The condition status values, each with a series. */
	public static final List<String> STATUSES = List.of("True", "False", "Unknown");

	private ResourceStateNames() {
	}

}
