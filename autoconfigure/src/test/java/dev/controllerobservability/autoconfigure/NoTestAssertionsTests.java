package dev.controllerobservability.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.rules.RuleReads;
import dev.controllerobservability.internal.rules.RuleSettings;
import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.live.DeclaredMetrics;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration runs inside the controller, so none of its classes throws
 * {@link AssertionError} or offers or calls an {@code assert…} method: test assertions,
 * such as the stable-metrics contract, live in
 * {@code controller-observability-spring-boot-test}. Nor do the tooling classes of the
 * live view it makes beans of.
 */
class NoTestAssertionsTests {

	private static final Path CLASSES = Path.of("target/classes");

	// Class files name the classes and methods they declare and call in plain UTF-8.
	private static final List<byte[]> ASSERTIONS = List.of("java/lang/AssertionError".getBytes(StandardCharsets.UTF_8),
			"assert".getBytes(StandardCharsets.UTF_8));

	@Test
	void noClassThrowsOrCallsAnAssertion() throws IOException {
		List<String> asserting;
		try (Stream<Path> files = Files.walk(CLASSES)) {
			asserting = files.filter((file) -> file.toString().endsWith(".class"))
				.filter(NoTestAssertionsTests::namesAnAssertion)
				.map((file) -> CLASSES.relativize(file).toString())
				.toList();
		}
		assertThat(CLASSES.resolve("dev/controllerobservability/autoconfigure/rules/StartupChecks.class")).exists();
		assertThat(asserting).as("classes that throw or call a test assertion at run time").isEmpty();
	}

	@Test
	void noClassOfTheLiveViewItServesThrowsOrCallsAnAssertion() throws IOException {
		List<Class<?>> types = new ArrayList<>(List.of(LiveMetrics.class, DeclaredMetrics.class,
				ControllerArtefacts.class, RuleReads.class, RuleSettings.class));
		types.addAll(Arrays.asList(LiveMetrics.class.getDeclaredClasses()));
		assertThat(types).hasSize(6);
		for (Class<?> type : types) {
			String file = type.getName().substring(type.getPackageName().length() + 1) + ".class";
			try (InputStream in = type.getResourceAsStream(file)) {
				assertThat(in).as(file).isNotNull();
				assertThat(namesAnAssertion(in.readAllBytes())).as(type.getName()).isFalse();
			}
		}
	}

	private static boolean namesAnAssertion(byte[] bytes) {
		return ASSERTIONS.stream().anyMatch((name) -> contains(bytes, name));
	}

	private static boolean namesAnAssertion(Path file) {
		try {
			return namesAnAssertion(Files.readAllBytes(file));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + file, ex);
		}
	}

	private static boolean contains(byte[] bytes, byte[] name) {
		for (int i = 0; i <= bytes.length - name.length; i++) {
			if (Arrays.equals(bytes, i, i + name.length, name, 0, name.length)) {
				return true;
			}
		}
		return false;
	}

}
