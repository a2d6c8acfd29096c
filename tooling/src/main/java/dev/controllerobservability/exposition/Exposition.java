package dev.controllerobservability.exposition;

import java.util.List;
import java.util.Optional;

import dev.controllerobservability.internal.metrics.ExposedFamily;

/**
 * The metric families of one scrape, in the order they were exposed.
 *
 * @param families the families
 * @param duplicateNames names declared by more than one {@code # TYPE} line
 */
public record Exposition(List<ExposedFamily> families, List<String> duplicateNames) {

	public Exposition {
		families = List.copyOf(families);
		duplicateNames = List.copyOf(duplicateNames);
	}

	/**
	 * Reads a scrape in the Prometheus text format.
	 * @param text the scrape
	 * @return its families
	 * @throws IllegalArgumentException for a line that is not of the text format
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
