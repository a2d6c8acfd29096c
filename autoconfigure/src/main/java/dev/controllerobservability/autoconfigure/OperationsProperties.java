package dev.controllerobservability.autoconfigure;

import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * Operation timing settings.
 *
 * @param tags Label keys every operation metric carries; a key not given on a call gets
 * the value "none".
 * @param definitions Per-operation settings, keyed by operation name such as "bind" or
 * "apply-packing".
 * @param directRecording Whether to record operations straight into their meters when no
 * tracing and no other observation handler bean would see them, skipping the observation
 * (and its allocations). Turn off when handlers are added to the observation registry by
 * hand rather than as beans.
 * @param maxOperations Most distinct undeclared operations recorded; declared operations
 * always are and do not count. Calls of further undeclared operations run unrecorded,
 * counted as recording failures.
 * @param backend Where operation durations are recorded: "micrometer" timers, seen by
 * every registry and meter filter, or "prometheus" histograms with classic and native
 * buckets, registered straight with the Prometheus registry: cheaper to record, but seen
 * by Prometheus only, without Micrometer's meter filters and
 * management.metrics.distribution.*, and with a _max gauge for BETA and STABLE operations
 * only.
 */
public record OperationsProperties(List<String> tags,
		@DefaultValue Map<String, OperationDefinitionProperties> definitions,
		@DefaultValue("true") boolean directRecording,
		@DefaultValue("" + ControllerOperations.DEFAULT_MAX_OPERATIONS) int maxOperations,
		@DefaultValue("micrometer") Backend backend) {

	public OperationsProperties {
		// The default is a constant list, which an annotation cannot hold.
		tags = (tags != null) ? tags : List.copyOf(MetricConventions.DEFAULT_OPERATION_LABELS);
	}

	/**
	 * Where operation durations are recorded.
	 */
	public enum Backend {

		/**
		 * Micrometer timers: every registry, meter filter and distribution setting
		 * applies, and every operation has a {@code _max} gauge.
		 */
		MICROMETER,

		/**
		 * Prometheus histograms with classic and native buckets, registered with the
		 * Prometheus registry.
		 */
		PROMETHEUS

	}

}
