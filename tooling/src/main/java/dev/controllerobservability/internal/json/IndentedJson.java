package dev.controllerobservability.internal.json;

import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the generated JSON artefacts (metrics reference, Grafana dashboard) with
 * Jackson, in the one layout they share: two-space indentation, one member or element per
 * line, {@code "key": value}, {@code {}} and {@code []} when empty, and a final newline,
 * so committed files diff line by line. Maps are written in their iteration order: pass
 * ordered maps. Example: {@code IndentedJson.write(Map.of("a", List.of(1, 2)))}.
 */
public final class IndentedJson {

	private static final DefaultIndenter INDENTER = new DefaultIndenter("  ", "\n");

	private static final ObjectWriter WRITER = JsonMapper.builder()
		.build()
		.writer()
		.with(new DefaultPrettyPrinter(Separators.createDefaultInstance()
			.withObjectNameValueSpacing(Separators.Spacing.AFTER)
			.withObjectEntrySpacing(Separators.Spacing.NONE)
			.withArrayElementSpacing(Separators.Spacing.NONE)
			.withObjectEmptySeparator("")
			.withArrayEmptySeparator("")).withObjectIndenter(INDENTER).withArrayIndenter(INDENTER));

	private IndentedJson() {
	}

	/**
	 * Writes a value as indented JSON.
	 * @param value maps, collections, records, strings, numbers, booleans or {@code null}
	 * @return the JSON text, ending with a newline
	 */
	public static String write(Object value) {
		return WRITER.writeValueAsString(value) + "\n";
	}

}
