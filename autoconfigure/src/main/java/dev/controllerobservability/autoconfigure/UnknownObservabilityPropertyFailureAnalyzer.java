package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
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
		List<ConfigurationProperty> unbound = cause.getUnboundProperties()
			.stream()
			.filter((property) -> PREFIX.isAncestorOf(property.getName()))
			.sorted()
			.toList();
		if (unbound.isEmpty()) {
			return null;
		}
		ConfigurationProperty first = unbound.get(0);
		ConfigurationPropertyName name = first.getName();
		PropertyTree.Unknown unknown = PropertyTree.find(elements(name), false);
		// A misspelt list or map is reported as itself, not as its first element.
		ConfigurationPropertyName reported = (unknown != null)
				? name.chop(PREFIX.getNumberOfElements() + unknown.index() + 1) : name;
		List<String> known = (unknown != null) ? unknown.known() : List.of();
		String leaf = reported.getLastElement(ConfigurationPropertyName.Form.DASHED);
		String reason = "the starter has no property '" + leaf + "' here"
				+ (known.isEmpty() ? "" : "; the properties at this place are " + String.join(", ", known));
		String closest = (unknown != null) ? unknown.closest() : null;
		String written = asWritten(reported);
		String action = ((closest != null) ? "Did you mean '" + closest + "'? " : "") + "Correct or remove '" + written
				+ "'" + origin(first) + ".";
		return InvalidObservabilityPropertyFailureAnalyzer.analysis(written, value(reported, unbound), reason, action,
				cause);
	}

	/** The elements below the prefix, lower case, list indexes as digits. */
	static List<String> elements(ConfigurationPropertyName name) {
		List<String> elements = new ArrayList<>();
		for (int i = PREFIX.getNumberOfElements(); i < name.getNumberOfElements(); i++) {
			elements.add(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL).toLowerCase(Locale.ROOT));
		}
		return elements;
	}

	/** The value as written: one value, or the list of values below a misspelt list. */
	private static Object value(ConfigurationPropertyName reported, List<ConfigurationProperty> unbound) {
		List<Object> values = unbound.stream()
			.filter((property) -> reported.equals(property.getName()) || reported.isAncestorOf(property.getName()))
			.map(ConfigurationProperty::getValue)
			.toList();
		return (values.size() == 1 && unbound.get(0).getName().equals(reported)) ? values.get(0) : values;
	}

	/** The name with map keys as written; the canonical form drops their underscores. */
	static String asWritten(ConfigurationPropertyName name) {
		StringBuilder written = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			written.append((i > 0) ? "." : "").append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
		}
		return written.toString();
	}

	static int distance(String a, String b) {
		return PropertyTree.distance(a, b);
	}

	private static String origin(ConfigurationProperty property) {
		return (property.getOrigin() != null) ? " in " + property.getOrigin() : "";
	}

}
