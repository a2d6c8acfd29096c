package dev.controllerobservability.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one {@link JvmProbe} in a fresh JVM on this class path and collects the
 * {@code RESULT <name> <value>} lines it prints.
 */
final class ProbeProcess {

	/**
	 * JVM options of every start-up run, the same for both variants: a fixed heap, so
	 * that no run resizes it at a moment of its own, and the serial collector, which
	 * starts no collector threads to compete with the start-up on a small machine and is
	 * what the JVM picks by itself in a container of one CPU or less than 1792 MB.
	 */
	static final List<String> STARTUP_OPTIONS = List.of("-Xms1g", "-XX:+UseSerialGC");

	private ProbeProcess() {
	}

	/**
	 * Runs the probe and waits for it.
	 * @param args the probe's arguments
	 * @return its results by name, in the order printed
	 * @throws IOException if the JVM cannot be started
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if the probe exits with an error
	 */
	static Map<String, Double> run(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
				"-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), JvmProbe.class.getName()));
		if (args.length > 0 && args[0].equals("startup")) {
			command.addAll(1, STARTUP_OPTIONS);
		}
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		Map<String, Double> results = new LinkedHashMap<>();
		List<String> output = new ArrayList<>();
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = lines.readLine()) != null) {
				output.add(line);
				if (line.startsWith("RESULT ")) {
					String[] parts = line.split(" ");
					results.put(parts[1], Double.parseDouble(parts[2]));
				}
			}
		}
		if (process.waitFor() != 0) {
			throw new IllegalStateException("Probe " + List.of(args) + " failed:\n" + String.join("\n", output));
		}
		return results;
	}

}
