package dev.controllerobservability.autoconfigure.strictness;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

import dev.controllerobservability.stability.StabilityLevel;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.OperationDefinitionProperties;

/**
 * Explains a {@code controller.observability.*} value Spring Boot cannot convert (a word
 * where a number or a duration belongs, a type, stability level or severity that does not
 * exist), saying which form the property takes or which values it allows, and where the
 * value was found. Ordered ahead of Spring Boot's generic analysis of binding failures.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class ObservabilityBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		if (!PropertyTree.PREFIX.isAncestorOf(cause.getName())
				|| cause.getCause() instanceof UnboundConfigurationPropertiesException) {
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		Object value = (property != null) ? property.getValue() : null;
		ResolvableType type = cause.getTarget().getType();
		Class<?> resolved = type.resolve(Object.class);
		// Map keys as written: alerts.LaunchErrors.severity, not alerts.launcherrors, and
		// metrics.snapshot_size_bytes, not metrics.snapshotsizebytes.
		String name = PropertyTree.asWritten(cause.getName());
		String origin = BoundProperty.in(property);
		if (resolved.isEnum()) {
			List<String> allowed = allowedValues(resolved);
			String last = String.join(" or ", allowed.subList(allowed.size() - 1, allowed.size()));
			return InvalidObservabilityPropertyFailureAnalyzer.analysis(name, value,
					"the " + cause.getName().getLastElement(ConfigurationPropertyName.Form.DASHED).replace('-', ' ')
							+ " is unknown: it is none of " + String.join(", ", allowed.subList(0, allowed.size() - 1))
							+ " or " + last + " (upper or lower case)",
					"Set it to one of " + String.join(", ", allowed) + origin + ".", cause);
		}
		String form = form(type);
		Throwable root = cause;
		while (root.getCause() != null) {
			root = root.getCause();
		}
		return InvalidObservabilityPropertyFailureAnalyzer.analysis(name, value,
				"the value cannot be read as " + form + " (" + root.getMessage() + ")",
				"Set it to " + form + example(type) + origin + ".", cause);
	}

	/** The values of an enum as the docs write them: stability levels in upper case. */
	private static List<String> allowedValues(Class<?> enumType) {
		return Arrays.stream(enumType.getEnumConstants())
			.map((constant) -> ((Enum<?>) constant).name())
			.map((name) -> (enumType == StabilityLevel.class) ? name : name.toLowerCase(Locale.ROOT))
			.toList();
	}

	private static String form(ResolvableType type) {
		Class<?> resolved = type.resolve(Object.class);
		if (Collection.class.isAssignableFrom(resolved)) {
			Class<?> element = type.asCollection().getGeneric(0).resolve(Object.class);
			return Number.class.isAssignableFrom(element) ? "a list of numbers" : "a list";
		}
		if (resolved.isEnum()) {
			return "one of " + String.join(", ", allowedValues(resolved));
		}
		if (resolved.getPackageName().equals(ControllerObservabilityProperties.class.getPackageName())) {
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
		if (OperationDefinitionProperties.class.equals(resolved)) {
			return ", such as {subsystem: allocation_controller}, or {} to declare the operation with defaults";
		}
		if (resolved == int.class || resolved == Integer.class) {
			return ", such as 200";
		}
		return "";
	}

}
