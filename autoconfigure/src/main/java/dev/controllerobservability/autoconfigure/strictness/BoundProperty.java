package dev.controllerobservability.autoconfigure.strictness;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.Environment;

/**
 * A property as the binder reads it, and where it was found: what every failure analysis
 * of the starter says about a value's origin.
 */
final class BoundProperty {

	private BoundProperty() {
	}

	/**
	 * The property from the first source that has it, the one the binder reads.
	 * @param environment the application's, or {@code null}
	 * @param name the name
	 * @return the property, or {@code null} when no source has it
	 */
	static @Nullable ConfigurationProperty read(@Nullable Environment environment, ConfigurationPropertyName name) {
		if (environment == null) {
			return null;
		}
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return property;
			}
		}
		return null;
	}

	/**
	 * Where a property was found, for the end of a sentence.
	 * @param property the property, or {@code null}
	 * @return such as {@code " in class path resource [application.yaml] - 3:5"}, or
	 * nothing when the origin is unknown
	 */
	static String in(@Nullable ConfigurationProperty property) {
		return (property != null && property.getOrigin() != null) ? " in " + property.getOrigin() : "";
	}

}
