package dev.controllerobservability.exposition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One sample line of a scrape, such as
 * {@code karpenter_bind_duration_seconds_bucket{result="success",le="0.5"} 3}.
 *
 * @param name the sample name, such as {@code karpenter_bind_duration_seconds_bucket}
 * @param labels its labels in order of appearance, {@code le} and {@code quantile}
 * included
 * @param value its value; {@code +Inf}, {@code -Inf} and {@code NaN} are read as the
 * matching {@code double}
 */
public record ExposedSample(String name, Map<String, String> labels, double value) {

	public ExposedSample {
		labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
	}

}
