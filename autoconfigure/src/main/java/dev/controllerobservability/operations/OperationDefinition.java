package dev.controllerobservability.operations;

import java.util.List;

/**
 * Optional per-operation settings.
 *
 * @param subsystem name part between the namespace and the operation, such as
 * {@code allocation_controller}; {@code null} for none
 * @param description HELP text of the duration histogram; {@code null} for a generated
 * one
 * @param buckets bucket boundaries in seconds, sorted ascending; empty for the shared
 * duration buckets
 */
public record OperationDefinition(String subsystem, String description, List<Double> buckets) {

	/** An operation with no subsystem, a generated description and the shared buckets. */
	public static final OperationDefinition DEFAULT = new OperationDefinition(null, null, List.of());

	public OperationDefinition {
		buckets = (buckets != null) ? List.copyOf(buckets) : List.of();
	}

}
