package dev.controllerobservability.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.kubernetes.process.StandardProcessMetrics;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's own metrics are read from the registry's snapshots, never by writing
 * its scrape as text and reading it back: no class of the modules that run in the
 * application (core, tooling, kubernetes, the auto-configuration) calls
 * {@link Exposition#parse(String)}. The text reader stays for scrapes that really are
 * text, in tests.
 */
class SnapshotReadPathTests {

	private static final String EXPOSITION = Exposition.class.getName().replace('.', '/');

	@Test
	void noRunTimeClassReadsTheScrapeAsText() throws IOException {
		List<String> callers = new ArrayList<>();
		for (Class<?> module : List.of(LiveMetrics.class, ControllerMetrics.class, MetricsLinter.class,
				StandardProcessMetrics.class)) {
			List<byte[]> types = classes(location(module));
			assertThat(types).as("classes of the module of %s", module.getName()).hasSizeGreaterThan(5);
			for (byte[] type : types) {
				callers.addAll(parseCallers(type));
			}
		}
		assertThat(callers).isEmpty();
	}

	@Test
	void findsACallToTheTextReader() throws IOException {
		// The scan finds what it looks for: this class's own call below.
		try (InputStream in = SnapshotReadPathTests.class.getResourceAsStream("SnapshotReadPathTests.class")) {
			assertThat(parseCallers(in.readAllBytes()))
				.containsExactly(SnapshotReadPathTests.class.getName() + ".readsText");
		}
	}

	static Exposition readsText(String text) {
		return Exposition.parse(text);
	}

	private static List<String> parseCallers(byte[] type) {
		List<String> callers = new ArrayList<>();
		ClassReader reader = new ClassReader(type);
		String className = reader.getClassName().replace('/', '.');
		reader.accept(new ClassVisitor(Opcodes.ASM9) {

			@Override
			public MethodVisitor visitMethod(int access, String method, String descriptor, String signature,
					String[] exceptions) {
				return new MethodVisitor(Opcodes.ASM9) {

					@Override
					public void visitMethodInsn(int opcode, String owner, String name, String called,
							boolean isInterface) {
						if (owner.equals(EXPOSITION) && name.equals("parse")) {
							callers.add(className + "." + method);
						}
					}

				};
			}

		}, ClassReader.SKIP_DEBUG);
		return callers;
	}

	private static Path location(Class<?> type) {
		try {
			return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The class files of a module, compiled to a directory or packaged as a jar.
	 */
	private static List<byte[]> classes(Path module) throws IOException {
		List<byte[]> classes = new ArrayList<>();
		if (Files.isDirectory(module)) {
			try (Stream<Path> files = Files.walk(module)) {
				files.filter((file) -> file.toString().endsWith(".class")).forEach((file) -> {
					try {
						classes.add(Files.readAllBytes(file));
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
				});
			}
			return classes;
		}
		try (JarFile jar = new JarFile(module.toFile())) {
			for (JarEntry entry : Collections.list(jar.entries())) {
				if (entry.getName().endsWith(".class")) {
					try (InputStream in = jar.getInputStream(entry)) {
						classes.add(in.readAllBytes());
					}
				}
			}
		}
		return classes;
	}

}
