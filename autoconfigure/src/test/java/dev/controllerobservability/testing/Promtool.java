package dev.controllerobservability.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs the real {@code promtool} (from the OS's prometheus package, which {@code .ci/run}
 * installs). Where it is missing the calling test is skipped, except in CI, where a
 * missing promtool is a broken machine and fails.
 */
public final class Promtool {

	private Promtool() {
	}

	/**
	 * Runs {@code promtool check metrics} on a scrape.
	 * @param scrape the scrape in the Prometheus text format
	 * @return the problem lines promtool printed, as {@code <metric> <text>}
	 */
	public static List<String> checkMetrics(String scrape) throws IOException, InterruptedException {
		Path input = Files.createTempFile("scrape", ".prom");
		try {
			Files.writeString(input, scrape);
			Process process = new ProcessBuilder(executable(), "check", "metrics").redirectInput(input.toFile())
				.redirectErrorStream(true)
				.start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException("promtool check metrics did not finish in 60 s");
			}
			if (process.exitValue() != 0 && process.exitValue() != 3) {
				throw new IllegalStateException("promtool check metrics failed (" + process.exitValue() + "): " + output);
			}
			return output.lines().filter((line) -> !line.isBlank()).toList();
		}
		finally {
			Files.deleteIfExists(input);
		}
	}

	private static String executable() {
		String path = System.getenv().getOrDefault("PATH", "");
		for (String directory : path.split(File.pathSeparator)) {
			Path candidate = Path.of(directory, "promtool");
			if (Files.isExecutable(candidate)) {
				return candidate.toString();
			}
		}
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			throw new IllegalStateException("promtool is not on the PATH " + Arrays.toString(path.split(File.pathSeparator))
					+ "; .ci/run installs it from the OS's prometheus package");
		}
		Assumptions.abort("promtool is not installed (apt-get install prometheus); skipping");
		return null;
	}

}
