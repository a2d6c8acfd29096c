package dev.controllerobservability.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs every benchmark in one go and writes {@code performance.md},
 * {@code performance.png}, {@code performance.json} (JMH's JSON, every run) and
 * {@code performance-probes.json} (the heap per series, every start-up run and the run's
 * duration) into the docs directory given as the first argument. Heap and start-up
 * figures come from {@link JvmProbe} runs in JVMs of their own, the start-up runs
 * alternating the two variants ({@link StartupComparison}). With {@code --resume} and the
 * work directory of a run that stopped, it takes the recording rows that run finished and
 * runs the rest. With {@code --report-only} as second argument it only rewrites the
 * report from those files. With {@code --rows} and a regular expression of recording
 * benchmark methods, or {@code --scrape-rows} and optionally the forks of each registry,
 * it runs those rows again and puts them in place of the earlier run's.
 */
public final class RunBenchmarks {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** Launches of the controller before the measured start-up runs, discarded. */
	private static final int STARTUP_WARM_UP_RUNS = 2;

	/** The fewest measured pairs of start-up runs, one run of each variant per pair. */
	private static final int STARTUP_MIN_PAIRS = 20;

	/**
	 * The most: pairs are added until the 95 % interval of the added time is narrow
	 * enough to judge the target ({@link StartupComparison#PRECISION}), at most 12
	 * minutes of runs here.
	 */
	private static final int STARTUP_MAX_PAIRS = 60;

	/**
	 * Forks of each recording benchmark at two threads: on two cores the two threads
	 * share them with the JVM's own threads, and one fork's mean moved by up to two times
	 * between runs of one commit.
	 */
	private static final int TWO_THREAD_FORKS = 4;

	/** Where the probes file lists the rows run again after the whole run. */
	private static final String LATER_RUNS = "later-runs";

	/**
	 * Forks of each registry in the {@link ScrapeBenchmark} rows, one of each per round:
	 * three, not six, so that the scrape part of a run (these 12 JVMs and the 12 of the
	 * formats' rows, about a minute each at 50,000 series) stays within about 15 minutes.
	 */
	private static final int SCRAPE_ROUNDS = 3;

	/**
	 * Forks of each registry in each format's {@link ScrapeFormatsBenchmark} row, one of
	 * each per round.
	 */
	private static final int SCRAPE_FORMAT_ROUNDS = 2;

	private RunBenchmarks() {
	}

	public static void main(String[] args) throws Exception {
		Path docs = Path.of(args.length > 0 ? args[0] : "docs").toAbsolutePath().normalize();
		if (args.length > 1 && args[1].equals("--report-only")) {
			report(docs);
			return;
		}
		if (args.length > 2 && args[1].equals("--rows")) {
			rows(docs, args[2]);
			return;
		}
		if (args.length > 1 && args[1].equals("--scrape-rows")) {
			scrapeRows(docs, (args.length > 2) ? Integer.parseInt(args[2]) : SCRAPE_FORMAT_ROUNDS);
			return;
		}
		// A run that stopped after its recording rows resumes from its work directory.
		boolean resume = args.length > 2 && args[1].equals("--resume");
		Path work = resume ? Path.of(args[2]) : Files.createTempDirectory("controller-observability-benchmarks");
		// A resumed run counts from the start of the run it resumes.
		Path startedFile = work.resolve("started");
		Instant started = (resume && Files.exists(startedFile)) ? Instant.parse(Files.readString(startedFile).strip())
				: Instant.now();
		Files.writeString(startedFile, started.toString());
		ArrayNode results = JSON.createArrayNode();
		results.addAll(runOrResume(work, "recording-1-thread", 1, 1));
		results.addAll(runOrResume(work, "recording-2-threads", 2, TWO_THREAD_FORKS));
		Random random = new Random();
		for (String series : ScrapeBenchmark.SERIES) {
			results.addAll(InterleavedForks.run(JSON, work.resolve("scrape.json"),
					(options) -> options(options, ScrapeBenchmark.class, 1, ".*").param("series", series), "registry",
					ScrapeBenchmark.REGISTRIES, SCRAPE_ROUNDS, random));
		}
		results.addAll(scrapeFormats(work, random, SCRAPE_FORMAT_ROUNDS));
		StartupComparison startup = StartupComparison.run(STARTUP_WARM_UP_RUNS, STARTUP_MIN_PAIRS, STARTUP_MAX_PAIRS,
				random);
		ObjectNode probes = JSON.createObjectNode();
		probes.put("heap-per-series", ProbeProcess.run("series", "10000").get("heap-per-series"));
		probes.set("startup", startup.toJson(JSON));
		probes.put("run-seconds", Duration.between(started, Instant.now()).toSeconds());
		Files.createDirectories(docs);
		Files.writeString(docs.resolve("performance.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
		Files.writeString(docs.resolve("performance-probes.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(probes));
		Map<String, String> profiles = RecordingProfiles.run(report(docs).missedRecordingBenchmarks(), work);
		Files.writeString(docs.resolve("performance-profiles.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(profiles));
		report(docs);
	}

	/**
	 * Runs some recording rows again, side by side with each other, at one and two
	 * threads, puts their results in place of the earlier ones and rewrites the report,
	 * which names them and their run.
	 * @param docs where the earlier run's files are
	 * @param methods the benchmark methods, a regular expression such as
	 * {@code o_.*|o0_.*}
	 */
	private static void rows(Path docs, String methods) throws Exception {
		Path work = Files.createTempDirectory("controller-observability-benchmarks");
		Instant started = Instant.now();
		ArrayNode fresh = JSON.createArrayNode();
		fresh.addAll(run(work, "rows-1-thread", RecordingBenchmark.class, 1, 1, methods));
		fresh.addAll(run(work, "rows-2-threads", RecordingBenchmark.class, 2, TWO_THREAD_FORKS, methods));
		replace(docs, fresh, started);
	}

	/**
	 * Runs the scrape rows of the three formats again, side by side with each other, puts
	 * their results in place of the earlier ones and rewrites the report, which names
	 * them and their run.
	 * @param docs where the earlier run's files are
	 * @param rounds forks of each registry in each format
	 */
	private static void scrapeRows(Path docs, int rounds) throws Exception {
		Path work = Files.createTempDirectory("controller-observability-benchmarks");
		Instant started = Instant.now();
		ArrayNode fresh = JSON.createArrayNode();
		fresh.addAll(scrapeFormats(work, new Random(), rounds));
		replace(docs, fresh, started);
	}

	/** The starter's {@code ScrapeWriter} against the stock registry, in each format. */
	private static List<JsonNode> scrapeFormats(Path work, Random random, int rounds) throws Exception {
		List<JsonNode> results = new ArrayList<>();
		for (String format : ScrapeFormatsBenchmark.FORMATS) {
			results.addAll(InterleavedForks.run(JSON, work.resolve("scrape-formats.json"),
					(options) -> options(options, ScrapeFormatsBenchmark.class, 1, ".*").param("format", format),
					"registry", ScrapeFormatsBenchmark.REGISTRIES, rounds, random));
		}
		return results;
	}

	/**
	 * Puts fresh results in place of the earlier ones of the same benchmark and
	 * parameters, notes them as a later run and rewrites the report.
	 */
	private static void replace(Path docs, ArrayNode fresh, Instant started) throws IOException {
		List<String> rerun = new ArrayList<>();
		fresh.forEach((result) -> {
			if (!rerun.contains(result.get("benchmark").asString())) {
				rerun.add(result.get("benchmark").asString());
			}
		});
		ArrayNode results = JSON.createArrayNode();
		JSON.readTree(Files.readString(docs.resolve("performance.json"))).forEach((result) -> {
			if (!rerun.contains(result.get("benchmark").asString())) {
				results.add(result);
			}
		});
		results.addAll(fresh);
		Files.writeString(docs.resolve("performance.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
		ObjectNode probes = (ObjectNode) JSON.readTree(Files.readString(docs.resolve("performance-probes.json")));
		ObjectNode later = probes.withArray(LATER_RUNS).addObject();
		later.put("date", java.time.LocalDate.now().toString());
		later.put("minutes", Duration.between(started, Instant.now()).toMinutes());
		rerun.forEach(later.withArray("benchmarks")::add);
		Files.writeString(docs.resolve("performance-probes.json"),
				JSON.writerWithDefaultPrettyPrinter().writeValueAsString(probes));
		report(docs);
	}

	/** Writes the report from the JSON files a run left in the docs directory. */
	private static PerformanceReport report(Path docs) throws IOException {
		List<JsonNode> parsed = new ArrayList<>();
		JSON.readTree(Files.readString(docs.resolve("performance.json"))).forEach(parsed::add);
		JsonNode probes = JSON.readTree(Files.readString(docs.resolve("performance-probes.json")));
		Map<String, Double> numbers = new LinkedHashMap<>();
		probes.properties()
			.stream()
			.filter((entry) -> entry.getValue().isNumber())
			.forEach((entry) -> numbers.put(entry.getKey(), entry.getValue().asDouble()));
		PerformanceReport report = new PerformanceReport(parsed, numbers,
				StartupComparison.fromJson(probes.path("startup")),
				Duration.ofSeconds(numbers.getOrDefault("run-seconds", 0.0).longValue()));
		List<PerformanceReport.LaterRun> laterRuns = new ArrayList<>();
		probes.path(LATER_RUNS).forEach((run) -> {
			List<String> benchmarks = new ArrayList<>();
			run.path("benchmarks").forEach((benchmark) -> benchmarks.add(benchmark.asString()));
			laterRuns.add(new PerformanceReport.LaterRun(run.path("date").asString(), run.path("minutes").asLong(),
					benchmarks));
		});
		report.laterRuns(laterRuns);
		Path profiles = docs.resolve("performance-profiles.json");
		if (Files.exists(profiles)) {
			Map<String, String> byBenchmark = new LinkedHashMap<>();
			JSON.readTree(Files.readString(profiles))
				.properties()
				.forEach((entry) -> byBenchmark.put(entry.getKey(), entry.getValue().asString()));
			report.profiles(byBenchmark);
		}
		Files.writeString(docs.resolve("performance.md"), report.markdown());
		report.chart(docs.resolve("performance.png"));
		System.out.println("Wrote " + docs.resolve("performance.md"));
		return report;
	}

	/** The recording rows, read from the work directory when an earlier run left them. */
	private static ArrayNode runOrResume(Path work, String name, int threads, int forks)
			throws RunnerException, IOException {
		Path result = work.resolve(name + ".json");
		if (Files.exists(result)) {
			System.out.println("Resuming with the rows of " + result);
			return (ArrayNode) JSON.readTree(Files.readString(result));
		}
		return run(work, name, RecordingBenchmark.class, threads, forks, ".*");
	}

	private static ArrayNode run(Path work, String name, Class<?> benchmark, int threads, int forks, String methods)
			throws RunnerException, IOException {
		Path result = work.resolve(name + ".json");
		new Runner(options(new OptionsBuilder(), benchmark, threads, methods).forks(forks)
			.result(result.toString())
			.build()).run();
		return (ArrayNode) JSON.readTree(Files.readString(result));
	}

	private static ChainedOptionsBuilder options(ChainedOptionsBuilder options, Class<?> benchmark, int threads,
			String methods) {
		return options.include(benchmark.getName() + "\\.(" + methods + ")$")
			.threads(threads)
			.addProfiler(GCProfiler.class)
			.resultFormat(ResultFormatType.JSON);
	}

}
