package dev.controllerobservability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's module table names exactly the build's modules, with their artifacts.
 */
class ModuleTableTests {

	private static final Path ROOT = Path.of("..");

	@Test
	void readmeModuleTableMatchesTheBuildsModules() throws IOException {
		String pom = Files.readString(ROOT.resolve("pom.xml"));
		List<String> modules = Pattern.compile("<module>([^<]+)</module>")
			.matcher(pom)
			.results()
			.map((module) -> module.group(1))
			.toList();
		String readme = Files.readString(ROOT.resolve("README.md"));
		String table = readme.substring(readme.indexOf("## Modules"));
		Matcher rows = Pattern.compile("^\\| `([a-z/-]+)/` \\| `([a-z-]+)` \\|", Pattern.MULTILINE).matcher(table);
		List<String> folders = rows.results()
			.map((row) -> row.group(1))
			.filter((folder) -> !folder.equals("docs"))
			.toList();
		assertThat(folders).containsExactlyInAnyOrderElementsOf(modules);
		for (String module : modules) {
			String artifact = artifactId(Files.readString(ROOT.resolve(module).resolve("pom.xml")));
			assertThat(table).as(module).contains("| `" + module + "/` | `" + artifact + "` |");
		}
	}

	private static String artifactId(String pom) {
		// The BOM and the plain Java example have no parent.
		String afterParent = pom.contains("</parent>") ? pom.substring(pom.indexOf("</parent>")) : pom;
		Matcher matcher = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(afterParent);
		assertThat(matcher.find()).isTrue();
		return matcher.group(1);
	}

}
