package dev.controllerobservability.autoconfigure.strictness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Explains a property under {@code controller.observability} that the starter does not
 * know (usually a typo), listing the properties that are known at that place. Ordered
 * ahead of Spring Boot's generic analysis of unbound properties.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnknownObservabilityPropertyFailureAnalyzer
		extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException> {

	private final @Nullable Environment environment;

	/**
	 * Creates the analyzer.
	 * @param environment where the properties come from, to find a value that hides
	 * another; Spring Boot passes the application's
	 */
	UnknownObservabilityPropertyFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
		List<ConfigurationProperty> unbound = cause.getUnboundProperties()
			.stream()
			.filter((property) -> PropertyTree.PREFIX.isAncestorOf(property.getName()))
			.sorted()
			.toList();
		if (unbound.isEmpty()) {
			return null;
		}
		ConfigurationProperty first = unbound.get(0);
		ConfigurationPropertyName name = first.getName();
		PropertyTree.Unknown unknown = PropertyTree.find(PropertyTree.elements(name), false);
		if (unknown == null) {
			return emptyValue(name, first, cause);
		}
		// A misspelt list or map is reported as itself, not as its first element.
		ConfigurationPropertyName reported = name.chop(PropertyTree.PREFIX.getNumberOfElements() + unknown.index() + 1);
		String leaf = reported.getLastElement(ConfigurationPropertyName.Form.DASHED);
		String reason = unknown.reason(leaf);
		String written = PropertyTree.asWritten(reported);
		String action = unknown.suggestion() + "Correct or remove '" + written + "'" + BoundProperty.in(first) + ".";
		return InvalidObservabilityPropertyFailureAnalyzer.analysis(written, value(reported, unbound), reason, action,
				cause);
	}

	/**
	 * A known property is left unbound when the value the binder reads converts to
	 * nothing. An empty value does, and in an environment variable or system property,
	 * which Spring Boot does not report as unbound, it hides the value of a file beneath
	 * it ({@code CONTROLLER_OBSERVABILITY_OPERATIONS_BACKEND=} over
	 * {@code operations.backend: prometheus}). The analysis blames the empty value.
	 */
	private FailureAnalysis emptyValue(ConfigurationPropertyName name, ConfigurationProperty unbound,
			UnboundConfigurationPropertiesException cause) {
		String written = PropertyTree.asWritten(name);
		ConfigurationProperty read = BoundProperty.read(this.environment, name);
		if (read != null && read != unbound && isEmpty(read.getValue())) {
			return InvalidObservabilityPropertyFailureAnalyzer.analysis(written, read.getValue(),
					"the empty value" + BoundProperty.in(read) + " takes precedence over \"" + unbound.getValue() + "\""
							+ BoundProperty.in(unbound) + " and sets no value",
					"Remove the empty value" + BoundProperty.in(read) + ", or give it a value", cause);
		}
		return InvalidObservabilityPropertyFailureAnalyzer.analysis(written, unbound.getValue(),
				"the value sets no value: it is empty or converts to nothing",
				"Give '" + written + "' a value, or remove it to use the default" + BoundProperty.in(unbound) + ".",
				cause);
	}

	private static boolean isEmpty(@Nullable Object value) {
		return value == null || value.toString().isBlank();
	}

	/**
	 * The value as written: one value, the list of values below a misspelt list, or the
	 * entries below a misspelt map or object.
	 */
	private static Object value(ConfigurationPropertyName reported, List<ConfigurationProperty> unbound) {
		List<ConfigurationProperty> below = unbound.stream()
			.filter((property) -> reported.equals(property.getName()) || reported.isAncestorOf(property.getName()))
			.toList();
		if (below.size() == 1 && below.get(0).getName().equals(reported)) {
			return below.get(0).getValue();
		}
		int depth = reported.getNumberOfElements();
		if (below.stream().allMatch((property) -> property.getName().isNumericIndex(depth))) {
			return below.stream().map(ConfigurationProperty::getValue).toList();
		}
		Map<String, Object> entries = new LinkedHashMap<>();
		for (ConfigurationProperty property : below) {
			StringBuilder key = new StringBuilder();
			for (int i = depth; i < property.getName().getNumberOfElements(); i++) {
				key.append((i > depth) ? "." : "")
					.append(property.getName().getElement(i, ConfigurationPropertyName.Form.ORIGINAL));
			}
			entries.put(key.toString(), property.getValue());
		}
		return entries;
	}

}
