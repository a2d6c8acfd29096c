package dev.controllerobservability.catalog;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.settings.DurationText;

/**
 * How a metric follows the objects it is about ({@link MetricDefinition#perObject()}):
 * its series carry the object's {@code namespace} and {@code name} labels (and
 * {@code kind} when {@code kind} is set), {@link ControllerMetrics#forget(ObjectRef)}
 * removes them, and with a time to live a series not written for that long is removed.
 *
 * @param kind whether the series also carry the object's {@code kind} label
 * @param timeToLive how long a series lives without being written, or {@code null} to
 * keep it until its object is forgotten
 */
public record PerObject(boolean kind, @Nullable Duration timeToLive) {

	/** Series that carry the namespace and name, until their object is forgotten. */
	public static final PerObject NAMESPACE_AND_NAME = new PerObject(false, null);

	/**
	 * How a metric declared with these settings follows its objects.
	 * @param metric the metric's declared name, for the message
	 * @param perObject whether the metric is per object
	 * @param kind whether its series also carry the object's kind
	 * @param timeToLive how long a series lives unwritten, or {@code null}
	 * @return the settings, or {@code null} for a metric that is not per object
	 * @throws InvalidMetricDefinitionException if the kind or a time to live is given for
	 * a metric that is not per object
	 */
	public static @Nullable PerObject of(String metric, boolean perObject, boolean kind,
			@Nullable Duration timeToLive) {
		if (!perObject && (kind || timeToLive != null)) {
			String field = kind ? "object-kind" : "time-to-live";
			throw new InvalidMetricDefinitionException(metric, field, kind ? "true" : DurationText.of(timeToLive),
					"only a per-object metric " + (kind ? "carries the object's kind" : "has a time to live"),
					"Declare the metric per object (per-object: true, or perObject() in Java), or leave " + field
							+ " out");
		}
		return perObject ? new PerObject(kind, timeToLive) : null;
	}

	/**
	 * The labels that name the object, in the order they come first among the metric's
	 * labels.
	 * @return {@code kind} (when set), {@code namespace} and {@code name}
	 */
	public List<String> labels() {
		return this.kind ? List.of(ObjectRef.KIND_LABEL, ObjectRef.NAMESPACE_LABEL, ObjectRef.NAME_LABEL)
				: List.of(ObjectRef.NAMESPACE_LABEL, ObjectRef.NAME_LABEL);
	}

}
