package dev.controllerobservability.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

/**
 * Explains a property under {@code controller.observability} that the starter does not
 * know (usually a typo), listing the properties that are known at that place. Ordered
 * ahead of Spring Boot's generic analysis of unbound properties.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnknownObservabilityPropertyFailureAnalyzer
		extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException> {

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName
		.of(ControllerObservabilityProperties.PREFIX);

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
		ConfigurationProperty unknown = cause.getUnboundProperties()
			.stream()
			.filter((property) -> PREFIX.isAncestorOf(property.getName()))
			.min(Comparator.naturalOrder())
			.orElse(null);
		if (unknown == null) {
			return null;
		}
		ConfigurationPropertyName name = unknown.getName();
		List<String> known = knownNames(name);
		String leaf = name.getLastElement(ConfigurationPropertyName.Form.DASHED);
		String reason = "the starter has no property '" + leaf + "' here"
				+ (known.isEmpty() ? "" : "; the properties at this place are " + String.join(", ", known));
		String closest = closest(leaf, known);
		String written = asWritten(name);
		String action = ((closest != null) ? "Did you mean '" + closest + "'? " : "") + "Correct or remove '"
				+ written + "'" + origin(unknown) + ".";
		return InvalidObservabilityPropertyFailureAnalyzer.analysis(written, unknown.getValue(), reason, action,
				cause);
	}

	/** The name with map keys as written; the canonical form drops their underscores. */
	private static String asWritten(ConfigurationPropertyName name) {
		StringBuilder written = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			written.append((i > 0) ? "." : "").append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		return written.toString();
	}

	private static String origin(ConfigurationProperty property) {
		return (property.getOrigin() != null) ? " in " + property.getOrigin() : "";
	}

	/**
	 * Property names known at the parent of {@code name}, found by walking the properties
	 * classes along the name (a map's key selects its value type).
	 */
	private static List<String> knownNames(ConfigurationPropertyName name) {
		ResolvableType type = ResolvableType.forClass(ControllerObservabilityProperties.class);
		for (int i = PREFIX.getNumberOfElements(); i < name.getNumberOfElements() - 1; i++) {
			PropertyDescriptor property = BeanUtils.getPropertyDescriptor(type.resolve(Object.class),
					camelCase(name.getElement(i, ConfigurationPropertyName.Form.DASHED)));
			if (property == null || property.getReadMethod() == null) {
				break;
			}
			type = ResolvableType.forMethodReturnType(property.getReadMethod());
			if (Map.class.isAssignableFrom(type.resolve(Object.class))) {
				type = type.asMap().getGeneric(1);
				i++;
			}
		}
		Class<?> owner = type.resolve(Object.class);
		if (owner.getName().startsWith("java.")) {
			return List.of();
		}
		return Arrays.stream(BeanUtils.getPropertyDescriptors(owner))
			.map(PropertyDescriptor::getName)
			.filter((property) -> !"class".equals(property))
			.map(UnknownObservabilityPropertyFailureAnalyzer::dashed)
			.sorted()
			.toList();
	}

	private static String camelCase(String dashed) {
		StringBuilder result = new StringBuilder();
		boolean upper = false;
		for (char c : dashed.toCharArray()) {
			if (c == '-') {
				upper = true;
			}
			else {
				result.append(upper ? Character.toUpperCase(c) : c);
				upper = false;
			}
		}
		return result.toString();
	}

	private static String dashed(String camelCase) {
		return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private static String closest(String leaf, List<String> known) {
		String best = null;
		int bestDistance = 3;
		for (String candidate : known) {
			int distance = distance(leaf, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return best;
	}

	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
