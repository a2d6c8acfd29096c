package dev.controllerobservability.operations;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.controllerobservability.stability.StabilityLevel;

/**
 * Optional per-operation settings.
 *
 * @param subsystem name part between the namespace and the operation, such as
 * {@code allocation_controller}; {@code null} for none
 * @param description HELP text of the duration histogram; {@code null} for a generated
 * one
 * @param buckets bucket boundaries in seconds, sorted ascending; empty for the shared
 * duration buckets
 * @param stability stability level shown in the help text, or {@code null} for none
 * (documented as ALPHA, as Kubernetes does)
 */
public record OperationDefinition(String subsystem, String description, List<Double> buckets,
		StabilityLevel stability) {

	/** An operation with no subsystem, a generated description and the shared buckets. */
	public static final OperationDefinition DEFAULT = new OperationDefinition(null, null, List.of(), null);

	public OperationDefinition {
		// Kept as given, nulls too: the settings' rules name a bad element by its index.
		buckets = (buckets != null) ? Collections.unmodifiableList(new ArrayList<>(buckets)) : List.of();
	}

}
