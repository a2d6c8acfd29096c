package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.stream.Collectors;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

/**
 * Explains a {@code controller.observability.*} value Spring Boot cannot convert (a word
 * where a number or a duration belongs), saying which form the property takes. Ordered
 * ahead of Spring Boot's generic analysis of binding failures.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class ObservabilityBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName
		.of(ControllerObservabilityProperties.PREFIX);

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		if (!PREFIX.isAncestorOf(cause.getName())
				|| cause.getCause() instanceof UnboundConfigurationPropertiesException) {
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		Object value = (property != null) ? property.getValue() : null;
		ResolvableType type = cause.getTarget().getType();
		String form = form(type);
		Throwable root = cause;
		while (root.getCause() != null) {
			root = root.getCause();
		}
		return InvalidObservabilityPropertyFailureAnalyzer.analysis(cause.getName().toString(), value,
				"the value cannot be read as " + form + " (" + root.getMessage() + ")",
				"Set it to " + form + example(type) + ".", cause);
	}

	private static String form(ResolvableType type) {
		Class<?> resolved = type.resolve(Object.class);
		if (Collection.class.isAssignableFrom(resolved)) {
			Class<?> element = type.asCollection().getGeneric(0).resolve(Object.class);
			return Number.class.isAssignableFrom(element) ? "a list of numbers" : "a list";
		}
		if (resolved.isEnum()) {
			return "one of " + Arrays.stream(resolved.getEnumConstants())
				.map((constant) -> constant.toString().toLowerCase(Locale.ROOT))
				.collect(Collectors.joining(", "));
		}
		if (resolved.getEnclosingClass() == ControllerObservabilityProperties.class) {
			return "settings (" + String.join(", ", PropertyTree.knownNames(resolved)) + ")";
		}
		if (Duration.class.equals(resolved)) {
			return "a duration";
		}
		if (resolved == int.class || resolved == Integer.class || resolved == long.class) {
			return "a whole number";
		}
		if (resolved == double.class || resolved == Double.class) {
			return "a number";
		}
		if (resolved == boolean.class || resolved == Boolean.class) {
			return "true or false";
		}
		return "a " + resolved.getSimpleName();
	}

	private static String example(ResolvableType type) {
		Class<?> resolved = type.resolve(Object.class);
		if (Collection.class.isAssignableFrom(resolved)) {
			return ", such as [0.1, 1, 10]";
		}
		if (Duration.class.equals(resolved)) {
			return ", such as 30s or 1m";
		}
		if (ControllerObservabilityProperties.Definition.class.equals(resolved)) {
			return ", such as {subsystem: allocation_controller}, or {} to declare the operation with defaults";
		}
		if (resolved == int.class || resolved == Integer.class) {
			return ", such as 200";
		}
		return "";
	}

}
