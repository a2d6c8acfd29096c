package dev.controllerobservability.exposition;

import java.util.List;
import java.util.Optional;

/**
 * The metric families and samples of one scrape, in the order they were exposed. Example,
 * in a test:
 *
 * <pre>{@code
 * Exposition exposition = Exposition.parse(registry.scrape());
 * assertThat(exposition.family("karpenter_bind_duration_seconds")).map(ExposedFamily::type).hasValue("histogram");
 * }</pre>
 *
 * @param families the families
 * @param duplicateNames names declared by more than one {@code # TYPE} line
 * @param samples every sample line, {@code le} and {@code quantile} labels included
 */
public record Exposition(List<ExposedFamily> families, List<String> duplicateNames, List<ExposedSample> samples) {

	public Exposition {
		families = List.copyOf(families);
		duplicateNames = List.copyOf(duplicateNames);
		samples = List.copyOf(samples);
	}

	/**
	 * Creates an exposition of families alone, such as the families a catalog declares.
	 * @param families the families
	 * @param duplicateNames names declared more than once
	 */
	public Exposition(List<ExposedFamily> families, List<String> duplicateNames) {
		this(families, duplicateNames, List.of());
	}

	/**
	 * Reads a scrape in the Prometheus text format exactly as Prometheus 2.42 reads it:
	 * what it accepts is read to the same names, labels, values and timestamps, and what
	 * it refuses is refused.
	 * @param text the scrape
	 * @return its families
	 * @throws IllegalArgumentException for input Prometheus refuses, naming the line, the
	 * column and Prometheus's reason
	 */
	public static Exposition parse(String text) {
		return new ExpositionParser(text).parse();
	}

	/**
	 * A family by name.
	 * @param name the family name
	 * @return the family, if exposed
	 */
	public Optional<ExposedFamily> family(String name) {
		return this.families.stream().filter((family) -> family.name().equals(name)).findFirst();
	}

}
