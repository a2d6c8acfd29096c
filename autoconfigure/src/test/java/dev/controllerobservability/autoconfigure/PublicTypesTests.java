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
 * tell users to call. Every helper stays package-private.
 */
class PublicTypesTests {

	private static final Path PACKAGE = Path.of("target/classes/dev/controllerobservability/autoconfigure");

	@Test
	void onlyWhatUsersTouchIsPublic() throws IOException {
		List<String> publicTypes;
		try (Stream<Path> classes = Files.list(PACKAGE)) {
			publicTypes = classes.map((file) -> file.getFileName().toString())
				.filter((name) -> name.endsWith(".class") && !name.contains("$") && !name.equals("package-info.class"))
				.map((name) -> name.substring(0, name.length() - ".class".length()))
				.filter(PublicTypesTests::isPublic)
				.sorted()
				.toList();
		}
		assertThat(publicTypes).containsExactly("AlertProperties", "ControllerArtefacts", "ControllerMetricsEndpoint",
				"ControllerMetricsLintEndpoint", "ControllerObservabilityAutoConfiguration",
				"ControllerObservabilityEndpointsAutoConfiguration", "ControllerObservabilityProperties",
				"ControllerRulesAndLintAutoConfiguration", "ControllerRulesEndpoint",
				"KubernetesObservabilityAutoConfiguration", "KubernetesProperties", "LintProperties", "LiveMetrics",
				"MetricProperties", "ObservedOperationAspectAutoConfiguration", "OperationDefinitionProperties",
				"OperationRulesProperties", "OperationsProperties", "RecordingRuleProperties", "RulesProperties",
				"ScrapeProperties");
	}

	private static boolean isPublic(String simpleName) {
		try {
			return Modifier
				.isPublic(Class.forName(PublicTypesTests.class.getPackageName() + "." + simpleName).getModifiers());
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
