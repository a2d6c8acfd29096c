package dev.controllerobservability.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Starts a real application (auto-configuration, no web server) with configuration given
 * in one kind of property source, as a user would give it.
 */
final class ConfiguredApplication {

	private static final String PROPERTY_SOURCE_LOCATION = "test.property-source.location";

	private ConfiguredApplication() {
	}

	/**
	 * Starts the application.
	 * @param source where the configuration comes from
	 * @param content the configuration: a YAML or properties document, or
	 * {@code name=value} lines
	 * @return the running context, to close
	 */
	static ConfigurableApplicationContext start(Source source, String content) {
		return start(source, content, new Class<?>[0]);
	}

	/**
	 * Starts the application with configuration classes of its own.
	 * @param source where the configuration comes from
	 * @param content the configuration: a YAML or properties document, or
	 * {@code name=value} lines
	 * @param configurations the application's own configuration classes
	 * @return the running context, to close
	 */
	static ConfigurableApplicationContext start(Source source, String content, Class<?>... configurations) {
		SpringApplication application = new SpringApplication(App.class);
		application.addPrimarySources(List.of(configurations));
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> args = new ArrayList<>();
		Map<String, String> entries = entries(content);
		switch (source) {
			case YAML -> args.add("--spring.config.additional-location=file:" + file(".yaml", content));
			case PROPERTIES -> args.add("--spring.config.additional-location=file:" + file(".properties", content));
			case COMMAND_LINE -> entries.forEach((name, value) -> args.add("--" + name + "=" + value));
			case PROPERTY_SOURCE -> {
				application.addPrimarySources(List.of(PropertySourceApp.class));
				args.add("--" + PROPERTY_SOURCE_LOCATION + "=file:" + file(".properties", content));
			}
			case DEFAULT_PROPERTIES -> application.setDefaultProperties(new LinkedHashMap<>(entries));
			case ENVIRONMENT -> application.setEnvironment(environment(entries));
			case SYSTEM_PROPERTIES -> entries.forEach(System::setProperty);
		}
		try {
			return application.run(args.toArray(String[]::new));
		}
		finally {
			if (source == Source.SYSTEM_PROPERTIES) {
				entries.keySet().forEach(System::clearProperty);
			}
		}
	}

	/** An environment whose only environment variables are those given. */
	private static StandardEnvironment environment(Map<String, String> variables) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<>(variables)));
		return environment;
	}

	private static Map<String, String> entries(String content) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (String line : content.split("\n")) {
			int equals = line.indexOf('=');
			if (equals > 0) {
				entries.put(line.substring(0, equals), line.substring(equals + 1));
			}
		}
		return entries;
	}

	private static Path file(String suffix, String content) {
		try {
			Path file = Files.createTempFile("controller-observability-", suffix);
			file.toFile().deleteOnExit();
			return Files.writeString(file, content);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * An {@code application.yaml} file under environment variables, which take precedence
	 * over it.
	 *
	 * @param yaml the file's content
	 * @param variables the environment variables
	 */
	record Layered(String yaml, Map<String, String> variables) {

		ConfigurableApplicationContext start() {
			SpringApplication application = new SpringApplication(App.class);
			application.setWebApplicationType(WebApplicationType.NONE);
			application.setEnvironment(environment(this.variables));
			return application.run("--spring.config.additional-location=file:" + file(".yaml", this.yaml));
		}

	}

	/** Where configuration comes from. */
	enum Source {

		/** An {@code application.yaml} file. */
		YAML,

		/** An {@code application.properties} file. */
		PROPERTIES,

		/** {@code --name=value} arguments. */
		COMMAND_LINE,

		/** Environment variables. */
		ENVIRONMENT,

		/** {@code -Dname=value} system properties. */
		SYSTEM_PROPERTIES,

		/** A properties file named by {@code @PropertySource}. */
		PROPERTY_SOURCE,

		/** {@link SpringApplication#setDefaultProperties(Map)}. */
		DEFAULT_PROPERTIES

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

	@Configuration(proxyBeanMethods = false)
	@PropertySource("${" + PROPERTY_SOURCE_LOCATION + "}")
	static class PropertySourceApp {

	}

}
