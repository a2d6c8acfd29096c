package dev.controllerobservability.kubernetes.operator;

import java.util.List;

import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.metrics.ResourceStateNames;

/**
 * The catalog metrics that describe the resources a Java Operator SDK controller
 * reconciles, per object and with their kind, after kube-state-metrics:
 * <ul>
 * <li>{@code <namespace>_resource_status_condition{kind,namespace,name,type,status}}: for
 * every condition of {@code .status.conditions[]} one series per status {@code True},
 * {@code False} and {@code Unknown}, 1 for the current one;</li>
 * <li>{@code <namespace>_resource_generation} and
 * {@code <namespace>_resource_observed_generation} ({@code metadata.generation},
 * {@code .status.observedGeneration} where present);</li>
 * <li>{@code <namespace>_resource_created_timestamp_seconds}
 * ({@code metadata.creationTimestamp}).</li>
 * </ul>
 * Declare them, and switch them on where the operator's metrics are built:
 *
 * <pre>{@code
 * ControllerObservability.Builder builder = ControllerObservability.builder(registry).namespace("karpenter");
 * ResourceStateMetrics.definitions().forEach(builder::metric);
 * ControllerObservability observability = builder.build();
 * ControllerRuntimeMetrics metrics = ControllerRuntimeMetrics.builder(registry, prometheusRegistry, observability.failures())
 *     .objects(observability.metrics()).resourceState(true).build();
 * }</pre>
 */
public final class ResourceStateMetrics {

	private ResourceStateMetrics() {
	}

	/**
	 * The definitions to declare.
	 * @return the four per-object gauges
	 */
	public static List<MetricDefinition> definitions() {
		return List.of(statusCondition(), generation(), observedGeneration(), createdTimestamp());
	}

	/**
	 * {@code resource_status_condition}.
	 * @return the definition
	 */
	public static MetricDefinition statusCondition() {
		return MetricDefinition.gauge(ResourceStateNames.STATUS_CONDITION)
			.help("Status of each condition of a reconciled resource: 1 for the current status, else 0.")
			.labels(ResourceStateNames.TYPE_LABEL, ResourceStateNames.STATUS_LABEL)
			.perObjectWithKind()
			.build();
	}

	/**
	 * {@code resource_generation}.
	 * @return the definition
	 */
	public static MetricDefinition generation() {
		return MetricDefinition.gauge(ResourceStateNames.GENERATION)
			.help("Generation of a reconciled resource's desired state (metadata.generation).")
			.perObjectWithKind()
			.build();
	}

	/**
	 * {@code resource_observed_generation}.
	 * @return the definition
	 */
	public static MetricDefinition observedGeneration() {
		return MetricDefinition.gauge(ResourceStateNames.OBSERVED_GENERATION)
			.help("Generation the controller last reported as reconciled (status.observedGeneration).")
			.perObjectWithKind()
			.build();
	}

	/**
	 * {@code resource_created_timestamp_seconds}.
	 * @return the definition
	 */
	public static MetricDefinition createdTimestamp() {
		return MetricDefinition.gauge(ResourceStateNames.CREATED)
			.help("Creation time of a reconciled resource (metadata.creationTimestamp), in Unix seconds.")
			.unit("seconds")
			.perObjectWithKind()
			.build();
	}

}
