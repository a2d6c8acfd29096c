package dev.controllerobservability.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Which Prometheus the fixture runs, and what happens without one.
 */
class PrometheusServerTests {

	@Test
	void prefersTheLocalBinary(@TempDir Path bin) throws IOException {
		Path prometheus = Files.createFile(bin.resolve("prometheus"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
		assertThat(PrometheusServer.runtime("/nowhere:" + bin, null, () -> true)).isInstanceOf(LocalPrometheus.class);
		assertThat(prometheus).isExecutable();
	}

	@Test
	void usesAContainerWhenOnlyDockerIsThere(@TempDir Path empty) {
		assertThat(PrometheusServer.runtime(empty.toString(), null, () -> true))
			.isInstanceOf(ContainerPrometheus.class);
	}

	@Test
	void skipsWithAnInstallHintWhenNeitherIsThere(@TempDir Path empty) {
		assertThatExceptionOfType(TestAbortedException.class)
			.isThrownBy(() -> PrometheusServer.runtime(empty.toString(), null, () -> false))
			.withMessageContaining("skipped")
			.withMessageContaining("apt-get install prometheus");
	}

	@Test
	void failsInCiWhenNeitherIsThere(@TempDir Path empty) {
		assertThatIllegalStateException()
			.isThrownBy(() -> PrometheusServer.runtime(empty.toString(), "true", () -> false))
			.withMessageContaining("In CI that is a broken machine");
	}

}
