package dev.controllerobservability.internal.json;

import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Writes maps, collections, strings, numbers, booleans and {@code null} as JSON, for the
 * generated artefacts (reference, dashboards) of this library, which must not depend on
 * the application's JSON library. Example:
 * {@code Json.write(Map.of("a", List.of(1, 2)))}.
 */
public final class Json {

	private Json() {
	}

	/**
	 * Writes a value as indented JSON.
	 * @param value the value
	 * @return the JSON text, ending with a newline
	 */
	public static String write(Object value) {
		StringBuilder json = new StringBuilder();
		write(json, value, "");
		return json.append('\n').toString();
	}

	private static void write(StringBuilder json, Object value, String indent) {
		if (value == null) {
			json.append("null");
		}
		else if (value instanceof Map<?, ?> map) {
			if (map.isEmpty()) {
				json.append("{}");
				return;
			}
			json.append("{\n");
			// Unordered maps (Map.of) are written sorted, so output is the same on every
			// run.
			Map<?, ?> ordered = (map instanceof LinkedHashMap || map instanceof SortedMap) ? map : new TreeMap<>(map);
			Iterator<? extends Map.Entry<?, ?>> entries = ordered.entrySet().iterator();
			while (entries.hasNext()) {
				Map.Entry<?, ?> entry = entries.next();
				json.append(indent).append("  ").append(quote(String.valueOf(entry.getKey()))).append(": ");
				write(json, entry.getValue(), indent + "  ");
				json.append(entries.hasNext() ? ",\n" : "\n");
			}
			json.append(indent).append('}');
		}
		else if (value instanceof Collection<?> collection) {
			if (collection.isEmpty()) {
				json.append("[]");
				return;
			}
			json.append("[\n");
			Iterator<?> items = collection.iterator();
			while (items.hasNext()) {
				json.append(indent).append("  ");
				write(json, items.next(), indent + "  ");
				json.append(items.hasNext() ? ",\n" : "\n");
			}
			json.append(indent).append(']');
		}
		else if (value instanceof Number || value instanceof Boolean) {
			json.append(value);
		}
		else {
			json.append(quote(value.toString()));
		}
	}

	/**
	 * Quotes a string as a JSON string literal.
	 * @param text the text
	 * @return the literal
	 */
	public static String quote(String text) {
		StringBuilder quoted = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			switch (c) {
				case '"' -> quoted.append("\\\"");
				case '\\' -> quoted.append("\\\\");
				case '\n' -> quoted.append("\\n");
				case '\t' -> quoted.append("\\t");
				default -> {
					if (c < 0x20) {
						quoted.append(String.format("\\u%04x", (int) c));
					}
					else {
						quoted.append(c);
					}
				}
			}
		}
		return quoted.append('"').toString();
	}

}
