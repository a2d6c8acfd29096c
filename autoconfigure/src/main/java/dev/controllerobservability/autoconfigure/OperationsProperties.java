package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * Operation timing settings.
 */
public class OperationsProperties {

	/**
	 * Label keys every operation metric carries; a key not given on a call gets the value
	 * "none".
	 */
	private List<String> tags = new ArrayList<>(MetricConventions.DEFAULT_OPERATION_LABELS);

	/**
	 * Per-operation settings, keyed by operation name such as "bind" or "apply-packing".
	 */
	private Map<String, OperationDefinitionProperties> definitions = new LinkedHashMap<>();

	/**
	 * Whether to record operations straight into their meters when no tracing and no
	 * other observation handler bean would see them, skipping the observation (and its
	 * allocations). Turn off when handlers are added to the observation registry by hand
	 * rather than as beans.
	 */
	private boolean directRecording = true;

	/**
	 * Most distinct undeclared operations recorded; declared operations always are and do
	 * not count. Calls of further undeclared operations run unrecorded, counted as
	 * recording failures.
	 */
	private int maxOperations = ControllerOperations.DEFAULT_MAX_OPERATIONS;

	/**
	 * Where operation durations are recorded: "micrometer" timers, seen by every registry
	 * and meter filter, or "prometheus" histograms with classic and native buckets,
	 * registered straight with the Prometheus registry: cheaper to record, but seen by
	 * Prometheus only, without Micrometer's meter filters and
	 * management.metrics.distribution.*, and with a _max gauge for BETA and STABLE
	 * operations only.
	 */
	private Backend backend = Backend.MICROMETER;

	public Backend getBackend() {
		return this.backend;
	}

	public void setBackend(Backend backend) {
		this.backend = backend;
	}

	public int getMaxOperations() {
		return this.maxOperations;
	}

	public void setMaxOperations(int maxOperations) {
		this.maxOperations = maxOperations;
	}

	public boolean isDirectRecording() {
		return this.directRecording;
	}

	public void setDirectRecording(boolean directRecording) {
		this.directRecording = directRecording;
	}

	public List<String> getTags() {
		return this.tags;
	}

	public void setTags(List<String> tags) {
		this.tags = tags;
	}

	public Map<String, OperationDefinitionProperties> getDefinitions() {
		return this.definitions;
	}

	public void setDefinitions(Map<String, OperationDefinitionProperties> definitions) {
		this.definitions = definitions;
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
