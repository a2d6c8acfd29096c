package dev.controllerobservability.exposition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One sample line of a scrape, such as
 * {@code karpenter_bind_duration_seconds_bucket{result="success",le="0.5"} 3}.
 *
 * @param name the sample name, such as {@code karpenter_bind_duration_seconds_bucket}
 * @param labels its labels in order of appearance, {@code le} and {@code quantile}
 * included, with the escapes {@code \\}, {@code \"} and {@code \n} read as a backslash, a
 * quote and a line feed and any other backslash kept, as Prometheus keeps it
 * @param value its value; {@code Inf} and {@code Infinity} with an optional sign and
 * {@code NaN}, in any case, are read as the matching {@code double}
 * @param timestamp the timestamp in milliseconds written after the value, or {@code null}
 * when the line has none
 */
public record ExposedSample(String name, Map<String, String> labels, double value, @Nullable Long timestamp) {

	public ExposedSample {
		labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
	}

	/**
	 * Creates a sample without a timestamp.
	 * @param name the sample name
	 * @param labels its labels
	 * @param value its value
	 */
	public ExposedSample(String name, Map<String, String> labels, double value) {
		this(name, labels, value, null);
	}

}
