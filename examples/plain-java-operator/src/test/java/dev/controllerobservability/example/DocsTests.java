package dev.controllerobservability.example;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/without-spring.md} shows the example's code and build as they are.
 */
class DocsTests {

	private static final Path DOCS = Path.of("../../docs/without-spring.md");

	private static final Pattern DECLARATION = Pattern.compile("^[A-Z][\\w<>, ]* (\\w+ = .*)$");

	@Test
	void javaBlocksAreTheExamplesCode() throws IOException {
		List<String> source = source();
		List<String> blocks = blocks("java");
		assertThat(blocks).hasSizeGreaterThanOrEqualTo(4);
		for (String block : blocks) {
			// The lint and reference block spells out what PlainJavaOperator's lint() and
			// reference() do with its fields; PlainJavaOperatorTests checks their output.
			if (block.startsWith("MetricsLinter linter")) {
				continue;
			}
			block.lines().map(String::strip).filter((line) -> !line.isEmpty()).forEach((line) -> {
				Matcher declaration = DECLARATION.matcher(line);
				String code = declaration.matches() ? declaration.group(1) : line;
				assertThat(source).as("source line holding %s", line)
					.anyMatch((sourceLine) -> sourceLine.contains(code));
			});
		}
	}

	@Test
	void leasePermissionsAreTheMockApiServersAnswer() throws IOException {
		assertThat(blocks("json")).containsExactly(MockApiServer.LEASE_PERMISSIONS + "\n");
	}

	@Test
	void dependenciesAreTheExamplesAndTheBomImport() throws IOException {
		String xml = blocks("xml").get(0);
		String pom = Files.readString(Path.of("pom.xml"));
		assertThat(xml).contains("<artifactId>controller-observability-bom</artifactId>", "<scope>import</scope>");
		Matcher artifact = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(xml);
		while (artifact.find()) {
			assertThat(pom).contains(artifact.group());
		}
		assertThat(xml).doesNotContain("<version>" + "${");
	}

	/** The example's main sources, stripped, with its constants written out. */
	private static List<String> source() throws IOException {
		List<String> lines = new ArrayList<>();
		try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				Files.readAllLines(file)
					.stream()
					.map(String::strip)
					.map((line) -> line.replace("this.", "")
						.replace("ConfigMapReconciler.APPLIED", quoted(ConfigMapReconciler.APPLIED))
						.replace("ConfigMapReconciler.KEYS", quoted(ConfigMapReconciler.KEYS))
						.replace("KUBERNETES_NAMESPACE", quoted(PlainJavaOperator.KUBERNETES_NAMESPACE))
						.replace("(NAMESPACE)", "(" + quoted(PlainJavaOperator.NAMESPACE) + ")")
						.replace("(LEASE)", "(" + quoted(PlainJavaOperator.LEASE) + ")"))
					.forEach(lines::add);
			}
		}
		return lines;
	}

	private static String quoted(String value) {
		return "\"" + value + "\"";
	}

	/** The fenced blocks of one language ("" for none) in the docs, in order. */
	static List<String> blocks(String language) throws IOException {
		List<String> blocks = new ArrayList<>();
		StringBuilder block = null;
		String blockLanguage = null;
		for (String line : Files.readAllLines(DOCS)) {
			if (block == null && line.startsWith("```")) {
				block = new StringBuilder();
				blockLanguage = line.substring(3).strip();
			}
			else if (block != null && line.equals("```")) {
				if (blockLanguage.equals(language)) {
					blocks.add(block.toString());
				}
				block = null;
			}
			else if (block != null) {
				block.append(line).append('\n');
			}
		}
		return blocks;
	}

}
