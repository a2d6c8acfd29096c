package dev.controllerobservability.autoconfigure;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What users may touch in the auto-configuration module is public, as Spring Boot keeps
 * it: the auto-configurations, the properties, the endpoints and the two beans the docs
 * tell users to call, in every package of the module. Every helper stays package-private;
 * a type public only to cross between the packages says why.
 */
class PublicTypesTests {

	private static final Path CLASSES = Path.of("target/classes");

	private static final Path MODULE = CLASSES.resolve("dev/controllerobservability/autoconfigure");

	@Test
	void onlyWhatUsersTouchIsPublic() throws IOException {
		List<String> publicTypes;
		try (Stream<Path> classes = Files.walk(MODULE)) {
			publicTypes = classes.map((file) -> CLASSES.relativize(file).toString().replace('/', '.'))
				.filter((name) -> name.endsWith(".class") && !name.contains("$")
						&& !name.endsWith("package-info.class"))
				.map((name) -> name.substring(0, name.length() - ".class".length()))
				.filter(PublicTypesTests::isPublic)
				.map((name) -> name.substring(PublicTypesTests.class.getPackageName().length() + 1))
				.sorted()
				.toList();
		}
		// The settings and DirectPrometheusFamilies are beans the feature packages take;
		// the strictness types are what those packages throw, annotate with and call.
		assertThat(publicTypes).containsExactly("AlertProperties", "ControllerObservabilityAutoConfiguration",
				"ControllerObservabilityProperties", "ControllerObservabilitySettings", "DirectPrometheusFamilies",
				"KubernetesProperties", "LintProperties", "MetricProperties", "OperationDefinitionProperties",
				"OperationRulesProperties", "OperationsProperties", "RecordingRuleProperties", "RulesProperties",
				"ScrapeProperties", "endpoint.ControllerMetricsEndpoint", "endpoint.ControllerMetricsLintEndpoint",
				"endpoint.ControllerObservabilityEndpointsAutoConfiguration", "endpoint.ControllerRulesEndpoint",
				"kubernetes.KubernetesObservabilityAutoConfiguration",
				"operations.ObservedOperationAspectAutoConfiguration", "rules.ControllerRulesAndLintAutoConfiguration",
				"scrape.SharedScrapeAutoConfiguration", "scrape.SharedScrapeEndpoint",
				"strictness.ConditionalOnObservabilitySwitch", "strictness.ConfigurationStrictness",
				"strictness.InvalidObservabilityPropertyException");
	}

	private static boolean isPublic(String className) {
		try {
			return Modifier.isPublic(Class.forName(className).getModifiers());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
