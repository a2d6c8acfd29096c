package dev.controllerobservability.autoconfigure;

import java.util.List;

import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.controllerobservability.stability.StabilityLevel;

/**
 * Settings of one operation.
 *
 * @param subsystem Name part between the namespace and the operation, snake_case, such as
 * "allocation_controller".
 * @param description Help text of the operation's duration histogram.
 * @param buckets Bucket boundaries of this operation's duration histogram, in seconds,
 * strictly increasing. Defaults to duration-buckets.
 * @param stability Stability level shown in the help text of the operation's metrics:
 * INTERNAL, ALPHA, BETA or STABLE.
 */
public record OperationDefinitionProperties(String subsystem, String description, @DefaultValue List<Double> buckets,
		StabilityLevel stability) {

	/**
	 * An operation declared without settings.
	 * @return the operation's settings, each at its default
	 */
	static OperationDefinitionProperties defaults() {
		return new OperationDefinitionProperties(null, null, List.of(), null);
	}

}
