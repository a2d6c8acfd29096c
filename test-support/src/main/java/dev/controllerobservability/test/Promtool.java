package dev.controllerobservability.test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
				throw new IllegalStateException(
						"promtool check metrics failed (" + process.exitValue() + "): " + output);
			}
			return output.lines().filter((line) -> !line.isBlank()).toList();
		}
		finally {
			Files.deleteIfExists(input);
		}
	}

	/**
	 * Runs {@code promtool check rules} on a rules file.
	 * @param rulesFile the file
	 * @return promtool's output; throws when promtool rejects the file
	 */
	public static String checkRules(Path rulesFile) throws IOException, InterruptedException {
		return run("check", "rules", rulesFile.toString());
	}

	/**
	 * Runs {@code promtool check config} on a Prometheus configuration file.
	 * @param configFile the file
	 * @param agent whether it is an agent's ({@code --agent}), which may hold no rules
	 * @return promtool's output; throws when promtool rejects the file
	 */
	public static String checkConfig(Path configFile, boolean agent) throws IOException, InterruptedException {
		return agent ? run("check", "config", "--agent", configFile.toString())
				: run("check", "config", configFile.toString());
	}

	/**
	 * Runs {@code promtool test rules} on a rule unit-test file.
	 * @param testFile the test file, whose rule_files are relative to it
	 * @return promtool's output; throws when a test fails
	 */
	public static String testRules(Path testFile) throws IOException, InterruptedException {
		return run("test", "rules", testFile.toString());
	}

	private static String run(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(executable());
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException("promtool " + String.join(" ", arguments) + " did not finish in 120 s");
		}
		if (process.exitValue() != 0) {
			throw new AssertionError(
					"promtool " + String.join(" ", arguments) + " failed (" + process.exitValue() + "):\n" + output);
		}
		return output;
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
			throw new IllegalStateException(
					"promtool is not on the PATH " + Arrays.toString(path.split(File.pathSeparator))
							+ "; .ci/run installs it from the OS's prometheus package");
		}
		Assumptions.abort("promtool is not installed (apt-get install prometheus); skipping");
		return null;
	}

}
