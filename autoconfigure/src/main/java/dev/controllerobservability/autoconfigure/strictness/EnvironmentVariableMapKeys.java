package dev.controllerobservability.autoconfigure.strictness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.env.PropertySource;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;

/**
 * Finds environment variables whose map key is the twin of a key written in another
 * property source. An environment variable spells a map key as one upper-case word, so
 * {@code OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS} binds to a key
 * {@code issuecertificate}. Next to {@code issue-certificate} in application.yaml the
 * binder keeps both keys, and applies the variable to both (it matches names ignoring
 * '-'): a phantom entry is declared and the real one changes, silently.
 */
final class EnvironmentVariableMapKeys {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX;

	/**
	 * Map keys written outside environment variables, by the normalized path of the map.
	 */
	private final Map<String, Map<String, Written>> written = new LinkedHashMap<>();

	/**
	 * Records the map keys of a name as written in a property source other than the
	 * environment variables.
	 * @param source the property source
	 * @param name the name as written
	 */
	void addWritten(PropertySource<?> source, String name) {
		ConfigurationPropertyName adapted = PropertyTree.below(name);
		if (adapted == null) {
			return;
		}
		List<String> elements = new ArrayList<>();
		for (int i = PropertyTree.PREFIX.getNumberOfElements(); i < adapted.getNumberOfElements(); i++) {
			String element = adapted.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
			elements.add(adapted.isNumericIndex(i) ? "[" + element + "]" : element);
		}
		Origin origin = PropertySourceOrigin.get(source, name);
		for (int[] key : PropertyTree.mapKeys(lowerCase(elements))) {
			add(elements.subList(0, key[0]), String.join(".", elements.subList(key[0], key[1])), origin);
		}
	}

	/**
	 * Records a map key that has no property of its own, such as an operation declared as
	 * {@code bind: {}}.
	 * @param map the elements of the map's name below {@code controller.observability}
	 * @param key the key as written
	 * @param origin where the key is written
	 */
	void addWritten(List<String> map, String key, Origin origin) {
		add(map, key, origin);
	}

	/**
	 * Records a key; a place in a text resource replaces one that names only the property
	 * source, as when a YAML loader keeps an empty map as an empty value.
	 */
	private void add(List<String> map, String key, @Nullable Origin origin) {
		Written written = new Written(String.join(".", map), key, origin);
		this.written.computeIfAbsent(normalized(map), (path) -> new LinkedHashMap<>())
			.merge(key, written, (first, second) -> (!(first.origin() instanceof TextResourceOrigin)
					&& second.origin() instanceof TextResourceOrigin) ? second : first);
	}

	/**
	 * Refuses an environment variable whose map key is the twin of a written key.
	 * @param variable the variable as set
	 * @param value its value
	 * @param tokens the variable's words below {@code CONTROLLER_OBSERVABILITY_}, lower
	 * case
	 * @throws InvalidObservabilityPropertyException for a twin
	 */
	void check(String variable, Object value, List<String> tokens) {
		for (int[] key : PropertyTree.mapKeys(tokens)) {
			String variableKey = String.join(".", tokens.subList(key[0], key[1]));
			Map<String, Written> keys = this.written.getOrDefault(normalized(tokens.subList(0, key[0])), Map.of());
			if (keys.containsKey(variableKey)) {
				continue;
			}
			for (Written twin : keys.values()) {
				if (squashed(twin.key()).equals(squashed(variableKey))) {
					throw twin(variable, value, tokens, key, twin);
				}
			}
		}
	}

	private static InvalidObservabilityPropertyException twin(String variable, Object value, List<String> tokens,
			int[] key, Written twin) {
		String word = String.join("_", tokens.subList(key[0], key[1])).toUpperCase(Locale.ROOT);
		String variableKey = String.join(".", tokens.subList(key[0], key[1]));
		boolean separators = twin.key().contains("-") || twin.key().contains("_");
		String exact = PREFIX + "." + (twin.map().isEmpty() ? "" : twin.map() + ".") + twin.key()
				+ tokens.subList(key[1], tokens.size())
					.stream()
					.map((token) -> token.chars().allMatch(Character::isDigit) ? "[" + token + "]" : "." + token)
					.collect(Collectors.joining());
		return InvalidObservabilityPropertyException.inNamedSource(variable, value,
				"environment variables cannot spell map keys containing "
						+ (separators ? "'-' or '_'" : "upper-case letters") + ", so " + word
						+ " declares a separate entry '" + variableKey + "' next to '" + twin.key() + "'"
						+ ((twin.origin() != null) ? " (in " + twin.origin() + ")" : "")
						+ ", and Spring Boot applies the variable to both",
				"Remove the environment variable " + variable + " and set the key as written in "
						+ "application.yaml, application.properties or SPRING_APPLICATION_JSON (" + exact
						+ "), or pass -D" + exact + "=" + value);
	}

	private static List<String> lowerCase(List<String> elements) {
		return elements.stream().map((element) -> element.toLowerCase(Locale.ROOT)).toList();
	}

	/** A map's path as the binder compares it: lower case, without '-' and '_'. */
	private static String normalized(List<String> elements) {
		return elements.stream().map(EnvironmentVariableMapKeys::squashed).collect(Collectors.joining("."));
	}

	/** A key as an environment variable can spell it: lower case, one word. */
	private static String squashed(String key) {
		return key.toLowerCase(Locale.ROOT).replaceAll("[-_.\\[\\]]", "");
	}

	/**
	 * A map key written outside environment variables.
	 *
	 * @param map the map's name below {@code controller.observability}, as written
	 * @param key the key as written
	 * @param origin where it is written, if known
	 */
	private record Written(String map, String key, @Nullable Origin origin) {
	}

}
