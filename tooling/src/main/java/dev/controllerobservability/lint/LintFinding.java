package dev.controllerobservability.lint;

/**
 * One problem with one metric family, as promtool prints it: {@code <metric> <text>}.
 *
 * @param metric the family name
 * @param text the problem, in promtool's words for promtool's rules
 * @param controllerMetric whether the family belongs to the controller (its namespace or
 * another non-framework name) rather than to the JVM, Spring Boot or a library
 */
public record LintFinding(String metric, String text, boolean controllerMetric) implements Comparable<LintFinding> {

	@Override
	public int compareTo(LintFinding other) {
		int byMetric = this.metric.compareTo(other.metric);
		return (byMetric != 0) ? byMetric : this.text.compareTo(other.text);
	}

	@Override
	public String toString() {
		return this.metric + " " + this.text;
	}

}
