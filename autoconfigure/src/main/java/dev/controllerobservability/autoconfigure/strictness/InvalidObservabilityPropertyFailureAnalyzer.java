package dev.controllerobservability.autoconfigure.strictness;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Turns an {@link InvalidObservabilityPropertyException} into the failure analysis Spring
 * Boot prints instead of a stack trace. The action ends with where the value came from,
 * as the binder read it, so a value that hides another
 * ({@code CONTROLLER_OBSERVABILITY_NAMESPACE=} over a valid file) is found where it is.
 */
class InvalidObservabilityPropertyFailureAnalyzer
		extends AbstractFailureAnalyzer<InvalidObservabilityPropertyException> {

	/**
	 * Elements of a name below which a parent is an entry:
	 * controller.observability.alerts.X.
	 */
	private static final int ENTRY_DEPTH = 4;

	private final @Nullable Environment environment;

	/**
	 * Creates the analyzer.
	 * @param environment where the properties come from, to say where a value came from;
	 * Spring Boot passes the application's
	 */
	InvalidObservabilityPropertyFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidObservabilityPropertyException cause) {
		String action = cause.getAction();
		Origin origin = cause.isOriginNamed() ? null : origin(cause.getProperty());
		if (origin != null && !action.contains(origin.toString())) {
			action = (action.endsWith(".") ? action.substring(0, action.length() - 1) : action) + " in " + origin
					+ (action.endsWith(".") ? "." : "");
		}
		return analysis(cause.getProperty(), cause.getValue(), cause.getReason(), action, cause);
	}

	/**
	 * Where the value of a property came from: the first property source that has it,
	 * which is the one the binder read. A list element may come as the whole list (a
	 * comma-separated environment variable), a map entry as the properties below it, a
	 * key Spring Boot only reads in brackets (such as {@code snap:age_seconds}) as
	 * written so, and a setting left out (an alert without a summary) as the entry it is
	 * missing from.
	 */
	private @Nullable Origin origin(String property) {
		if (this.environment == null) {
			return null;
		}
		List<ConfigurationPropertyName> names = new ArrayList<>();
		try {
			names.add(ConfigurationPropertyName.adapt(property, '.'));
		}
		catch (RuntimeException ex) {
			// A name Spring Boot cannot read still deserves its analysis.
		}
		ConfigurationPropertyName bracketed = bracketed(property);
		if (bracketed != null) {
			names.add(bracketed);
		}
		names.removeIf(ConfigurationPropertyName::isEmpty);
		for (ConfigurationPropertyName name : names) {
			Origin origin = origin(name);
			if (origin != null) {
				return origin;
			}
		}
		for (ConfigurationPropertyName name : names) {
			if (name.getNumberOfElements() > ENTRY_DEPTH) {
				Origin origin = origin(name.getParent());
				if (origin != null) {
					return origin;
				}
			}
		}
		return null;
	}

	private @Nullable Origin origin(ConfigurationPropertyName name) {
		ConfigurationPropertyName list = name.isLastElementIndexed() ? name.getParent() : null;
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			ConfigurationProperty found = source.getConfigurationProperty(name);
			if (found == null && list != null) {
				found = source.getConfigurationProperty(list);
			}
			if (found == null && source instanceof IterableConfigurationPropertySource iterable) {
				found = iterable.stream()
					.filter(name::isAncestorOf)
					.findFirst()
					.map(iterable::getConfigurationProperty)
					.orElse(null);
			}
			if (found != null) {
				return found.getOrigin();
			}
		}
		return null;
	}

	/** The name with every element Spring Boot cannot read outside brackets bracketed. */
	private static @Nullable ConfigurationPropertyName bracketed(String property) {
		StringBuilder name = new StringBuilder();
		for (String element : property.split("\\.")) {
			if (ConfigurationPropertyName.isValid(element)) {
				name.append(name.isEmpty() ? "" : ".").append(element);
			}
			else {
				name.append('[').append(element).append(']');
			}
		}
		return ConfigurationPropertyName.isValid(name) ? ConfigurationPropertyName.of(name) : null;
	}

	static FailureAnalysis analysis(String property, Object value, String reason, String action, Throwable cause) {
		String description = String.format(
				"Invalid controller observability configuration:%n%n    Property: %s%n    Value: %s%n    Reason: %s",
				property, (value != null) ? "\"" + value + "\"" : "(not set)", reason);
		return new FailureAnalysis(description, action, cause);
	}

}
