package dev.controllerobservability.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.web.context.support.StandardServletEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's default exposure ({@code health,prometheus}) gives way to the user's
 * {@code management.endpoints.web.exposure.include} from every kind of property source,
 * including the two that Spring Boot adds after environment post-processors ran. Each
 * case starts a real application and asks it over HTTP.
 */
class ExposureSourcesIntegrationTests {

	private static final String EXPOSURE = "management.endpoints.web.exposure.include";

	@ParameterizedTest
	@EnumSource(Source.class)
	void servesPrometheusOnlyWhenTheUserLeavesTheExposureToTheStarter(Source source) throws Exception {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.SERVLET);
		List<String> args = new ArrayList<>(List.of("--server.port=0"));
		String systemProperty = System.getProperty(EXPOSURE);
		try (ConfigurableApplicationContext context = source.start(application, args)) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			assertThat(status(port, "/actuator/health")).isEqualTo(200);
			assertThat(status(port, "/actuator/prometheus")).isEqualTo(source.prometheusStatus);
		}
		finally {
			if (systemProperty != null) {
				System.setProperty(EXPOSURE, systemProperty);
			}
			else {
				System.clearProperty(EXPOSURE);
			}
		}
	}

	private static int status(int port, String path) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
					HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

	/**
	 * Where the user's setting comes from, and what {@code /actuator/prometheus} answers.
	 */
	enum Source {

		NONE(200) {
			@Override
			void configure(SpringApplication application, List<String> args) {
			}
		},

		YAML_FILE(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				args.add("--spring.config.name=exposure-user-yaml");
			}
		},

		PROPERTIES_FILE(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				args.add("--spring.config.name=exposure-user-properties");
			}
		},

		COMMAND_LINE(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				args.add("--" + EXPOSURE + "=health");
			}
		},

		ENVIRONMENT_VARIABLE(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				application.setEnvironment(new StandardServletEnvironment() {

					@Override
					public Map<String, Object> getSystemEnvironment() {
						Map<String, Object> variables = new HashMap<>(super.getSystemEnvironment());
						variables.put("MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE", "health");
						return variables;
					}

				});
			}
		},

		SYSTEM_PROPERTY(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				System.setProperty(EXPOSURE, "health");
			}
		},

		PROPERTY_SOURCE_ANNOTATION(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				application.addPrimarySources(List.of(UserPropertySource.class));
			}
		},

		DEFAULT_PROPERTIES(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				application.setDefaultProperties(Map.of(EXPOSURE, "health"));
			}
		},

		// The starter switched off from a source that arrives late: no default exposure,
		// so Boot's own default (health only) applies.
		STARTER_DISABLED_BY_PROPERTY_SOURCE_ANNOTATION(404) {
			@Override
			void configure(SpringApplication application, List<String> args) {
				application.addPrimarySources(List.of(StarterDisabled.class));
			}
		};

		private final int prometheusStatus;

		Source(int prometheusStatus) {
			this.prometheusStatus = prometheusStatus;
		}

		abstract void configure(SpringApplication application, List<String> args);

		ConfigurableApplicationContext start(SpringApplication application, List<String> args) {
			configure(application, args);
			return application.run(args.toArray(String[]::new));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@PropertySource("classpath:exposure-user-properties.properties")
	static class UserPropertySource {

	}

	@Configuration(proxyBeanMethods = false)
	@PropertySource("classpath:exposure-starter-disabled.properties")
	static class StarterDisabled {

	}

	// No component scan: this package holds the auto-configuration itself.
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

	}

}
