package dev.controllerobservability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core packages are a plain library: only the Spring layer imports Spring.
 */
class CoreIndependenceTests {

	@ParameterizedTest
	@ValueSource(strings = { "metrics", "operations", "catalog", "stability", "cardinality", "exposition", "lint", "docs", "rules", "dashboard",
			"kubernetes", "kubernetes/client", "kubernetes/operator", "kubernetes/leader" })
	void corePackageDoesNotImportSpring(String corePackage) throws IOException {
		Path directory = Path.of("src/main/java/dev/controllerobservability", corePackage);
		assertThat(directory).isDirectory();
		try (Stream<Path> files = Files.list(directory)) {
			List<Path> sources = files.filter((file) -> file.toString().endsWith(".java")).toList();
			assertThat(sources).isNotEmpty();
			for (Path source : sources) {
				assertThat(Files.readString(source)).as(source.toString()).doesNotContain("org.springframework");
			}
		}
	}

}
