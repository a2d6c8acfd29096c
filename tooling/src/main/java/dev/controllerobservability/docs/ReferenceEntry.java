package dev.controllerobservability.docs;

import java.util.List;

import dev.controllerobservability.stability.StabilityLevel;

/**
 * One metric family in the reference.
 *
 * @param name exposed name, such as {@code karpenter_nodes_launched_total}
 * @param type {@code counter}, {@code gauge}, {@code histogram}, {@code summary} or
 * {@code untyped}, as the scrape declares it
 * @param help help text without the stability and deprecation annotations
 * @param labels label names, sorted
 * @param stability the stability level, {@code null} for framework metrics
 * @param deprecatedVersion the version that deprecated it, or {@code null}
 * @param replacedBy the metric that replaces it, or {@code null}
 * @param buckets histogram bucket boundaries, without {@code +Inf}
 * @param group {@link Group#CONTROLLER}, {@link Group#KUBERNETES} or
 * {@link Group#FRAMEWORK}
 */
public record ReferenceEntry(String name, String type, String help, List<String> labels, StabilityLevel stability,
		String deprecatedVersion, String replacedBy, List<Double> buckets, Group group) {

	public ReferenceEntry {
		labels = List.copyOf(labels);
		buckets = List.copyOf(buckets);
	}

	/** Who names a metric. */
	public enum Group {

		/** The controller: its namespace, and any name not known as a framework's. */
		CONTROLLER,

		/** Kubernetes client and controller-runtime compatible names. */
		KUBERNETES,

		/** The JVM, Spring Boot and libraries. */
		FRAMEWORK

	}

}
