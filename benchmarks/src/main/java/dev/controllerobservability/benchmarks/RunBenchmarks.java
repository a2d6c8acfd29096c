package dev.controllerobservability.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * Runs every benchmark in one go and writes {@code performance.md},
 * {@code performance.png}, {@code performance.json} (JMH's JSON, every run) and
 * {@code performance-probes.json} (heap probes and the run's duration) into the docs
 * directory given as the first argument. Heap figures come from {@link HeapProbe} runs in
 * JVMs of their own. With {@code --report-only} as second argument it only rewrites the
 * report from those files.
 */
public final class RunBenchmarks {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private RunBenchmarks() {
	}

	public static void main(String[] args) throws Exception {
		Path docs = Path.of(args.length > 0 ? args[0] : "docs").toAbsolutePath().normalize();
		if (args.length > 1 && args[1].equals("--report-only")) {
			report(docs);
			return;
		}
		Path work = Files.createTempDirectory("controller-observability-benchmarks");
		Instant started = Instant.now();
		ArrayNode results = JSON.createArrayNode();
		results.addAll(run(work, "recording-1-thread", RecordingBenchmark.class, 1));
		results.addAll(run(work, "recording-2-threads", RecordingBenchmark.class, 2));
		results.addAll(run(work, "scrape", ScrapeBenchmark.class, 1));
		results.addAll(run(work, "startup", StartupBenchmark.class, 1));
		Map<String, Double> heap = new LinkedHashMap<>();
		for (int round = 0; round < 3; round++) {
			for (String application : List.of("starter", "without-starter")) {
				probe(heap, "startup", application);
			}
		}
		probe(heap, "series", "10000");
		Duration took = Duration.between(started, Instant.now());
		heap.put("run-seconds", (double) took.toSeconds());
		Files.createDirectories(docs);
		Files.writeString(docs.resolve("performance.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
		Files.writeString(docs.resolve("performance-probes.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(heap));
		report(docs);
	}

	/** Writes the report from the JSON files a run left in the docs directory. */
	private static void report(Path docs) throws IOException {
		List<JsonNode> parsed = new ArrayList<>();
		JSON.readTree(Files.readString(docs.resolve("performance.json"))).forEach(parsed::add);
		Map<String, Double> heap = new LinkedHashMap<>();
		JSON.readTree(Files.readString(docs.resolve("performance-probes.json")))
			.properties()
			.forEach((entry) -> heap.put(entry.getKey(), entry.getValue().asDouble()));
		PerformanceReport report = new PerformanceReport(parsed, heap,
				Duration.ofSeconds(heap.getOrDefault("run-seconds", 0.0).longValue()));
		Files.writeString(docs.resolve("performance.md"), report.markdown());
		report.chart(docs.resolve("performance.png"));
		System.out.println("Wrote " + docs.resolve("performance.md"));
	}

	private static ArrayNode run(Path work, String name, Class<?> benchmark, int threads)
			throws RunnerException, IOException {
		Path result = work.resolve(name + ".json");
		ChainedOptionsBuilder options = new OptionsBuilder().include(benchmark.getName() + "\\.")
			.threads(threads)
			.addProfiler(GCProfiler.class)
			.resultFormat(ResultFormatType.JSON)
			.result(result.toString());
		new Runner(options.build()).run();
		return (ArrayNode) JSON.readTree(Files.readString(result));
	}

	/**
	 * Runs a {@link HeapProbe} in a fresh JVM and keeps the mean of its results by name.
	 */
	private static void probe(Map<String, Double> results, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
				"-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), HeapProbe.class.getName()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try (BufferedReader output = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = output.readLine()) != null) {
				if (line.startsWith("RESULT ")) {
					String[] parts = line.split(" ");
					String key = parts[1];
					double value = Double.parseDouble(parts[2]);
					String countKey = key + "#count";
					double count = results.getOrDefault(countKey, 0.0);
					results.put(key, (results.getOrDefault(key, 0.0) * count + value) / (count + 1));
					results.put(countKey, count + 1);
				}
			}
		}
		if (process.waitFor() != 0) {
			throw new IllegalStateException("Heap probe " + List.of(args) + " failed");
		}
	}

}
