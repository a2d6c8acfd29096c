package dev.controllerobservability.autoconfigure.strictness;

import java.util.List;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.Set;

import org.springframework.boot.origin.Origin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Keeps the starter's promise about {@code controller.observability.*} names in every
 * property source (files, command line, environment variables, system properties,
 * {@code @PropertySource}, default properties) where Spring Boot's binder lets a name
 * pass silently: a name that binds to nothing where Boot does not check, characters the
 * binder drops ({@link PropertySourceNames}), an environment variable that declares a
 * twin of a map key written elsewhere ({@link EnvironmentVariableMapKeys}), an operation
 * declared as {@code bind: {}} that YAML leaves no property for
 * ({@link EmptyOperationDefinitions}). The settings resolution calls it once, before it
 * binds.
 * <p>
 * For example: {@code Set<String> declared = ConfigurationStrictness.check(environment)
 * .emptyOperationDefinitions();}
 */
public final class ConfigurationStrictness {

	private ConfigurationStrictness() {
	}

	/**
	 * Checks every property source of an environment.
	 * @param environment the environment
	 * @return what the binder cannot see and the settings need
	 * @throws InvalidObservabilityPropertyException for the first name that binds to
	 * nothing or loses characters, or for an environment variable whose map key is the
	 * twin of a key written elsewhere
	 */
	public static Checked check(Environment environment) {
		Map<String, Origin> emptyOperations = EmptyOperationDefinitions.find(environment);
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return new Checked(emptyOperations.keySet());
		}
		EnvironmentVariableMapKeys mapKeys = new EnvironmentVariableMapKeys();
		Map<String, Object> variables = new LinkedHashMap<>();
		for (PropertySource<?> source : configurable.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable) {
				boolean systemEnvironment = isSystemEnvironment(source);
				for (String name : enumerable.getPropertyNames()) {
					if (systemEnvironment) {
						PropertySourceNames.checkEnvironmentVariable(name, enumerable.getProperty(name));
						variables.putIfAbsent(name, enumerable.getProperty(name));
					}
					else {
						PropertySourceNames.checkName(source, name, enumerable.getProperty(name));
						mapKeys.addWritten(source, name);
					}
				}
			}
		}
		emptyOperations.forEach(
				(operation, origin) -> mapKeys.addWritten(List.of("operations", "definitions"), operation, origin));
		variables.forEach((variable, value) -> {
			List<String> tokens = PropertySourceNames.tokens(variable);
			if (tokens != null) {
				mapKeys.check(variable, value, tokens);
			}
		});
		return new Checked(emptyOperations.keySet());
	}

	private static boolean isSystemEnvironment(PropertySource<?> source) {
		return source.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
				|| source.getName().endsWith("-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
	}

	/**
	 * What the checks found that the binder cannot see.
	 *
	 * @param emptyOperationDefinitions names of the operations declared as {@code <op>:
	 * {}} in YAML, as written, in order of appearance
	 */
	public record Checked(Set<String> emptyOperationDefinitions) {

	}

}
