package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.controllerobservability.metrics.MetricConventions;

/**
 * Configuration of Controller Observability, under {@code controller.observability}.
 * Unknown properties under this prefix stop start-up, so a typo never goes unnoticed.
 */
@ConfigurationProperties(prefix = ControllerObservabilityProperties.PREFIX, ignoreUnknownFields = false)
public class ControllerObservabilityProperties {

	/** Prefix of every property of this starter. */
	public static final String PREFIX = "controller.observability";

	/**
	 * Whether to auto-configure controller observability.
	 */
	private boolean enabled = true;

	/**
	 * Prefix of every controller metric name, snake_case. Defaults to
	 * spring.application.name in snake_case, else "controller".
	 */
	private String namespace;

	/**
	 * Tags added to controller metrics only, never to JVM, process or HTTP meters.
	 */
	private Map<String, String> commonTags = new LinkedHashMap<>();

	/**
	 * Default histogram bucket boundaries of controller duration metrics, in seconds,
	 * strictly increasing. Defaults to controller-runtime's 40 reconcile buckets.
	 */
	private List<Double> durationBuckets = new ArrayList<>(MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS);

	/**
	 * Dotted Micrometer name prefixes of meters registered without the namespace that
	 * belong to the controller; they get the namespace, common tags and buckets.
	 */
	private List<String> meterPrefixes = new ArrayList<>();

	/**
	 * Minimum time between two log lines about failed metric recording.
	 */
	private Duration errorLogInterval = Duration.ofMinutes(1);

	/**
	 * Operation timing.
	 */
	private final Operations operations = new Operations();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public Map<String, String> getCommonTags() {
		return this.commonTags;
	}

	public void setCommonTags(Map<String, String> commonTags) {
		this.commonTags = commonTags;
	}

	public List<Double> getDurationBuckets() {
		return this.durationBuckets;
	}

	public void setDurationBuckets(List<Double> durationBuckets) {
		this.durationBuckets = durationBuckets;
	}

	public List<String> getMeterPrefixes() {
		return this.meterPrefixes;
	}

	public void setMeterPrefixes(List<String> meterPrefixes) {
		this.meterPrefixes = meterPrefixes;
	}

	public Duration getErrorLogInterval() {
		return this.errorLogInterval;
	}

	public void setErrorLogInterval(Duration errorLogInterval) {
		this.errorLogInterval = errorLogInterval;
	}

	public Operations getOperations() {
		return this.operations;
	}

	/**
	 * Operation timing settings.
	 */
	public static class Operations {

		/**
		 * Label keys every operation metric carries; a key not given on a call gets the
		 * value "none".
		 */
		private List<String> tags = new ArrayList<>(MetricConventions.DEFAULT_OPERATION_LABELS);

		/**
		 * Per-operation settings, keyed by operation name such as "bind" or
		 * "apply-packing".
		 */
		private Map<String, Definition> definitions = new LinkedHashMap<>();

		public List<String> getTags() {
			return this.tags;
		}

		public void setTags(List<String> tags) {
			this.tags = tags;
		}

		public Map<String, Definition> getDefinitions() {
			return this.definitions;
		}

		public void setDefinitions(Map<String, Definition> definitions) {
			this.definitions = definitions;
		}

	}

	/**
	 * Settings of one operation.
	 */
	public static class Definition {

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

	}

}
