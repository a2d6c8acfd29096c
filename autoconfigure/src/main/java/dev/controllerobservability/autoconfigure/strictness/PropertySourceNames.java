package dev.controllerobservability.autoconfigure.strictness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;

/**
 * Checks the names of {@code controller.observability.*} properties as they are written
 * in the property sources, for what Spring Boot's binder lets pass silently:
 * <ul>
 * <li>names in environment variables and system properties that bind to nothing (Boot's
 * unknown-property check skips those two sources, so a typo there is ignored);</li>
 * <li>names with characters the binder drops outside brackets, such as a label key
 * {@code 'bad key!'}, which would bind as {@code badkey};</li>
 * <li>environment variables that spell a map key written elsewhere with '-' or '_' as one
 * word, which declare a second entry ({@link EnvironmentVariableMapKeys}).</li>
 * </ul>
 */
final class PropertySourceNames {

	private static final String PREFIX = ControllerObservabilityProperties.PREFIX;

	private static final String ENVIRONMENT_PREFIX = "CONTROLLER_OBSERVABILITY_";

	/**
	 * What Kubernetes sets for a Service named {@code controller-observability} (service
	 * links), which is no property of the starter.
	 */
	private static final Pattern SERVICE_LINK = Pattern
		.compile("SERVICE_HOST|SERVICE_PORT(_.*)?|PORT(_\\d+_(TCP|UDP|SCTP)(_PROTO|_PORT|_ADDR)?)?");

	private PropertySourceNames() {
	}

	/**
	 * The words of an environment variable of the starter, lower case.
	 * @param variable the variable
	 * @return the words below {@code CONTROLLER_OBSERVABILITY_}, or {@code null} for a
	 * variable that is no property of the starter
	 */
	static @Nullable List<String> tokens(String variable) {
		String upper = variable.toUpperCase(Locale.ROOT);
		if (!upper.startsWith(ENVIRONMENT_PREFIX)) {
			return null;
		}
		String rest = upper.substring(ENVIRONMENT_PREFIX.length());
		if (SERVICE_LINK.matcher(rest).matches()) {
			return null;
		}
		return Arrays.stream(rest.split("_"))
			.filter((token) -> !token.isEmpty())
			.map((token) -> token.toLowerCase(Locale.ROOT))
			.toList();
	}

	/**
	 * Refuses an environment variable of the starter that binds to nothing.
	 * @param variable the variable
	 * @param value its value
	 */
	static void checkEnvironmentVariable(String variable, Object value) {
		List<String> tokens = tokens(variable);
		if (tokens == null) {
			return;
		}
		PropertyTree.Unknown unknown = PropertyTree.find(tokens, true);
		if (unknown == null) {
			return;
		}
		if (unknown.splitMap() != null) {
			int[] map = unknown.splitMap();
			String written = String.join("_", tokens.subList(map[0], map[1])).toUpperCase(Locale.ROOT);
			List<String> corrected = new ArrayList<>(tokens.subList(0, map[0]));
			corrected.add(String.join("", tokens.subList(map[0], map[1])));
			corrected.addAll(tokens.subList(map[1], tokens.size()));
			throw InvalidObservabilityPropertyException.inNamedSource(variable, value,
					"Spring Boot reads the entries of a map "
							+ "property from environment variables only when the map's name is one word, so " + written
							+ " binds to nothing",
					"Rename the variable to " + ENVIRONMENT_PREFIX
							+ String.join("_", corrected).toUpperCase(Locale.ROOT));
		}
		String suggestion = (unknown.closest() != null) ? "Did you mean '" + unknown.closest() + "' ("
				+ ENVIRONMENT_PREFIX + String.join("_", tokens.subList(0, unknown.index())).toUpperCase(Locale.ROOT)
				+ ((unknown.index() > 0) ? "_" : "") + unknown.closest().toUpperCase(Locale.ROOT).replace('-', '_')
				+ ")? " : "";
		String mapKeys = unknown.inMap() ? " Environment variables cannot spell map keys that contain '_' or '-'; "
				+ "set such keys in application.yaml or SPRING_APPLICATION_JSON." : "";
		throw InvalidObservabilityPropertyException.inNamedSource(variable, value,
				unknown.reason(tokens.get(unknown.index()))
						+ ", so the environment variable binds to nothing (Spring Boot does not check environment "
						+ "variables for unknown names)",
				suggestion + "Correct or remove the environment variable " + variable + "." + mapKeys);
	}

	/**
	 * Refuses a name outside environment variables that loses characters, or a system
	 * property that binds to nothing.
	 * @param source its property source
	 * @param written the name as written
	 * @param value its value
	 */
	static void checkName(PropertySource<?> source, String written, Object value) {
		ConfigurationPropertyName name = PropertyTree.below(written);
		if (name == null) {
			return;
		}
		String dropped = droppedCharacters(written);
		if (!dropped.isEmpty()) {
			throw droppedCharacters(written, value, name, dropped);
		}
		if (source.getName().equals(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME)) {
			List<String> elements = PropertyTree.elements(name);
			PropertyTree.Unknown unknown = PropertyTree.find(elements, false);
			if (unknown != null) {
				throw InvalidObservabilityPropertyException.inNamedSource(written, value,
						unknown.reason(elements.get(unknown.index()))
								+ ", so the system property binds to nothing (Spring Boot does not check system "
								+ "properties for unknown names)",
						unknown.suggestion() + "Correct or remove the system property '" + written + "'.");
			}
		}
	}

	private static InvalidObservabilityPropertyException droppedCharacters(String written, Object value,
			ConfigurationPropertyName name, String dropped) {
		List<String> elements = splitOutsideBrackets(written.substring(PREFIX.length() + 1));
		int bad = 0;
		while (bad < elements.size() - 1 && droppedCharacters(elements.get(bad)).isEmpty()) {
			bad++;
		}
		int[] key = null;
		for (int[] candidate : PropertyTree.mapKeys(PropertyTree.elements(name))) {
			if (candidate[0] <= bad && candidate[1] <= elements.size()) {
				key = candidate;
			}
		}
		String quoted = dropped.chars().mapToObj((c) -> "'" + (char) c + "'").collect(Collectors.joining(", "));
		String action = (key != null)
				? "Write the key in brackets to keep it as written, such as '"
						+ String.join(".", elements.subList(0, key[0])) + "["
						+ String.join(".", elements.subList(key[0], key[1])) + "]"
						+ ((key[1] < elements.size())
								? "." + String.join(".", elements.subList(key[1], elements.size())) : "")
						+ "' below " + PREFIX + " (quoted in YAML), or use only letters, digits, '-' and '_'"
				: "Remove " + quoted + " from the name";
		return new InvalidObservabilityPropertyException(written, value,
				"Spring Boot drops " + quoted + " from property names outside brackets, so this binds as '"
						+ PropertyTree.asWritten(name) + "', not as written",
				action);
	}

	/** Characters of a name outside brackets that the binder drops. */
	private static String droppedCharacters(String written) {
		Set<Character> dropped = new LinkedHashSet<>();
		int depth = 0;
		for (char c : written.toCharArray()) {
			if (c == '[') {
				depth++;
			}
			else if (c == ']') {
				depth--;
			}
			else if (depth == 0 && !(Character.isLetterOrDigit(c) && c < 128) && c != '.' && c != '-' && c != '_') {
				dropped.add(c);
			}
		}
		return dropped.stream().map(String::valueOf).collect(Collectors.joining());
	}

	private static List<String> splitOutsideBrackets(String written) {
		List<String> elements = new ArrayList<>();
		int depth = 0;
		int start = 0;
		for (int i = 0; i < written.length(); i++) {
			char c = written.charAt(i);
			depth += (c == '[') ? 1 : (c == ']') ? -1 : 0;
			if (c == '.' && depth == 0) {
				elements.add(written.substring(start, i));
				start = i + 1;
			}
		}
		elements.add(written.substring(start));
		return elements;
	}

}
