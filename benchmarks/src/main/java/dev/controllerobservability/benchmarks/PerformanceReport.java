package dev.controllerobservability.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import tools.jackson.databind.JsonNode;

import dev.controllerobservability.benchmarks.StartupComparison.Sample;

/**
 * Turns the JMH JSON results, the heap probe and the start-up runs into
 * {@code performance.md} and a chart. Every figure is a ratio to a baseline measured in
 * the same run, with the absolute numbers beside it.
 */
final class PerformanceReport {

	/** The recording variants in the order of the tables and the chart. */
	private static final List<String[]> VARIANTS = List.of(
			new String[] { "a_handWrittenTimer", "A", "hand-written Micrometer timer, built and registered per call" },
			new String[] { "a0_cachedMicrometerTimer", "A0", "the same Micrometer timer, cached" },
			new String[] { "b_stockObservation", "B", "stock Observation with the default meter handler" },
			new String[] { "c_operationsObserve", "C", "ControllerOperations.observe (this starter)" },
			new String[] { "c1_operationsObserveFreshTags", "C′",
					"ControllerOperations.observe with a fresh Tags.of(...) per call, as the README writes it" },
			new String[] { "cp_operationsObservePrometheus", "CP", "C with operations.backend=prometheus" },
			new String[] { "cp1_operationsObservePrometheusFreshTags", "C′P", "C′ with operations.backend=prometheus" },
			new String[] { "c0_operationsObserveThroughObservation", "C0",
					"the same through the Observation API (before the direct path; still used with tracing)" },
			new String[] { "d_observedOperationAnnotation", "D", "@ObservedOperation through the Spring proxy" },
			new String[] { "e_preBoundHandle", "E", "pre-bound OperationHandle" },
			new String[] { "ep_preBoundHandlePrometheus", "EP", "E with operations.backend=prometheus" },
			new String[] { "f_prometheusHistogramFloor", "F", "prometheus-metrics-core histogram data point (floor)" },
			new String[] { "fn_prometheusNativeHistogramFloor", "FN",
					"F with native buckets (schema 3, at most 100), prometheus-metrics-core's own" },
			new String[] { "fs_starterNativeHistogram", "FS",
					"this starter's histogram data point, classic and native buckets: what the prometheus backend records into" },
			new String[] { "g_catalogCounter", "G′",
					"catalog counter looked up by name and labels, then incremented (per-label-set cache)" },
			new String[] { "g_cachedMicrometerCounter", "G0", "cached Micrometer counter increment" },
			new String[] { "h_catalogHistogram", "H",
					"a ratio observed into a declared histogram, exact on the PrometheusMeterRegistry" },
			new String[] { "h0_cachedMicrometerDistributionSummary", "H0",
					"cached Micrometer DistributionSummary of the same buckets (rounds the value up)" },
			new String[] { "o_perObjectCounter", "O",
					"per-object counter (namespace, name and result) looked up by name, ObjectRef and result, then incremented" },
			new String[] { "o0_catalogCounterOfThreeLabels", "O0",
					"a catalog counter of the same three labels, not per object, looked up by name and labels, then incremented" },
			new String[] { "of_forgetObjectAndRecordItAgain", "OF",
					"forget an object with a series in three per-object metrics, then record the three anew" });

	/**
	 * Recording rows run again after the whole run.
	 *
	 * @param date the day of the run
	 * @param minutes how long it took
	 * @param benchmarks the benchmarks' full names
	 */
	record LaterRun(String date, long minutes, List<String> benchmarks) {
	}

	/** The benchmark of the scrape rows in each format. */
	private static final String SCRAPE_FORMATS = "ScrapeFormatsBenchmark.scrape";

	private final List<JsonNode> results;

	private final Map<String, Double> probes;

	private final StartupComparison startup;

	private final Duration took;

	/** Rows run again after the whole run, side by side with each other. */
	private List<LaterRun> laterRuns = List.of();

	/** Recording benchmarks whose 1-thread targets the results miss, in target order. */
	private final Set<String> missed = new LinkedHashSet<>();

	/** Profiles of missed recording benchmarks by method name. */
	private Map<String, String> profiles = Map.of();

	/**
	 * Creates the report.
	 * @param results JMH's JSON results
	 * @param probes the heap-per-series probe's result by name
	 * @param startup the start-up runs, possibly none
	 * @param took how long the whole run took
	 */
	PerformanceReport(List<JsonNode> results, Map<String, Double> probes, StartupComparison startup, Duration took) {
		this.results = results;
		this.probes = probes;
		this.startup = startup;
		this.took = took;
		targets(new StringBuilder());
	}

	/**
	 * The recording benchmarks whose 1-thread targets the results miss.
	 * @return their method names
	 */
	Set<String> missedRecordingBenchmarks() {
		return Collections.unmodifiableSet(this.missed);
	}

	/**
	 * Adds profiles of missed recording benchmarks.
	 * @param profiles flat profiles by benchmark method name
	 * @return this report
	 */
	PerformanceReport laterRuns(List<LaterRun> laterRuns) {
		this.laterRuns = List.copyOf(laterRuns);
		return this;
	}

	PerformanceReport profiles(Map<String, String> profiles) {
		this.profiles = Map.copyOf(profiles);
		return this;
	}

	String markdown() throws IOException {
		StringBuilder md = new StringBuilder();
		md.append("# Performance\n\n");
		md.append("Generated by `./mvnw -pl benchmarks -am package exec:exec -DskipTests` (JMH ")
			.append(jmhVersion())
			.append(", GC profiler) on ")
			.append(LocalDate.now())
			.append(", Java ")
			.append(System.getProperty("java.version"))
			.append(", ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" cores; the whole run took ")
			.append(this.took.toMinutes())
			.append(" min. Do not edit by hand: rerun the command. Every ratio compares figures measured ")
			.append("side by side in this one run; the raw JMH results are in `performance.json`, every start-up ")
			.append("run in `performance-probes.json`.");
		for (LaterRun run : this.laterRuns) {
			List<String> rows = new ArrayList<>(VARIANTS.stream()
				.filter((variant) -> run.benchmarks().stream().anyMatch((name) -> name.endsWith("." + variant[0])))
				.map((variant) -> variant[1])
				.toList());
			if (run.benchmarks().stream().anyMatch((name) -> name.endsWith(SCRAPE_FORMATS))) {
				rows.add("of the scrape in three formats");
			}
			md.append(" Rows ")
				.append(String.join(", ", rows))
				.append(" come from a later run of their own on ")
				.append(run.date())
				.append(" (")
				.append(run.minutes())
				.append(" min, the same settings), side by side with each other only: compare them with each ")
				.append("other, not with the rows of the whole run.");
		}
		md.append("\n\n![Time per recorded operation](performance.png)\n\n");
		targets(md);
		profiles(md);
		recording(md);
		scrape(md);
		md.append(startupSection());
		try (InputStream notes = PerformanceReport.class.getResourceAsStream("/performance-notes.md")) {
			if (notes != null) {
				md.append(new String(notes.readAllBytes(), StandardCharsets.UTF_8));
			}
		}
		return md.toString();
	}

	void chart(Path png) throws IOException {
		CategoryChart chart = new CategoryChartBuilder().width(1000)
			.height(520)
			.title("Time per timed operation, A-F (lower is better)")
			.xAxisTitle("variant (see the tables)")
			.yAxisTitle("ns/op")
			.build();
		chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
		for (int threads : new int[] { 1, 2 }) {
			List<String> labels = new ArrayList<>();
			List<Double> values = new ArrayList<>();
			for (String[] variant : VARIANTS) {
				if (variant[1].startsWith("G") || variant[1].startsWith("O")) {
					// Counter increments and object lifecycles are no timed operations.
					continue;
				}
				recordingResult(variant[0], threads).ifPresent((result) -> {
					labels.add(variant[1]);
					values.add(score(result));
				});
			}
			if (!labels.isEmpty()) {
				chart.addSeries(threads + (threads == 1 ? " thread" : " threads"), labels, values);
			}
		}
		String file = png.toString();
		BitmapEncoder.saveBitmap(chart, file.substring(0, file.length() - ".png".length()),
				BitmapEncoder.BitmapFormat.PNG);
	}

	private void targets(StringBuilder md) {
		md.append("## Targets\n\n| target | measured | |\n|---|---|---|\n");
		for (int threads : new int[] { 1, 2 }) {
			String in = " (" + threads + (threads == 1 ? " thread)" : " threads)");
			ratioTarget(md, "C ≤ 1.0 × A" + in, "c_operationsObserve", "a_handWrittenTimer", threads, 1.0);
			ratioTarget(md, "C ≤ 0.5 × B" + in, "c_operationsObserve", "b_stockObservation", threads, 0.5);
			allocationTarget(md, "C allocates ≤ 64 B/op" + in, "c_operationsObserve", threads, 64);
			ratioTarget(md, "E ≤ 1.10 × A0" + in, "e_preBoundHandle", "a0_cachedMicrometerTimer", threads, 1.10);
			allocationTarget(md, "E allocates 0 B/op" + in, "e_preBoundHandle", threads, 0.5);
			ratioTarget(md, "EP ≤ 1.15 × F" + in, "ep_preBoundHandlePrometheus", "f_prometheusHistogramFloor", threads,
					1.15);
			ratioTarget(md, "CP ≤ 1.30 × F" + in, "cp_operationsObservePrometheus", "f_prometheusHistogramFloor",
					threads, 1.30);
			allocationTarget(md, "EP allocates 0 B/op" + in, "ep_preBoundHandlePrometheus", threads, 0.5);
			allocationTarget(md, "CP allocates 0 B/op" + in, "cp_operationsObservePrometheus", threads, 0.5);
			ratioTarget(md, "C′ ≤ 1.0 × A0" + in, "c1_operationsObserveFreshTags", "a0_cachedMicrometerTimer", threads,
					1.0);
			ratioTarget(md, "C′P ≤ 1.0 × A0" + in, "cp1_operationsObservePrometheusFreshTags",
					"a0_cachedMicrometerTimer", threads, 1.0);
			ratioTarget(md, "G′ ≤ 3 × G0" + in, "g_catalogCounter", "g_cachedMicrometerCounter", threads, 3.0);
			ratioTarget(md, "H ≤ 1.0 × H0" + in, "h_catalogHistogram", "h0_cachedMicrometerDistributionSummary",
					threads, 1.0);
			allocationTarget(md, "H allocates 0 B/op" + in, "h_catalogHistogram", threads, 0.5);
			ratioTarget(md, "O ≤ 1.0 × O0" + in, "o_perObjectCounter", "o0_catalogCounterOfThreeLabels", threads, 1.0);
			allocationTarget(md, "O allocates 0 B/op" + in, "o_perObjectCounter", threads, 0.5);
		}
		for (String series : scrapeSeries().stream().filter((series) -> !series.equals("1000")).toList()) {
			Optional<JsonNode> starter = scrapeResult(series, "starter");
			Optional<JsonNode> stock = scrapeResult(series, "stock");
			if (starter.isPresent() && stock.isPresent()) {
				double ratio = score(starter.get()) / score(stock.get());
				row(md, "Scrape ≤ 1.1 × stock registry at " + series + " series", String.format(Locale.ROOT,
						"%.1f ms vs %.1f ms: %.2f ×", score(starter.get()), score(stock.get()), ratio), ratio <= 1.1);
			}
		}
		for (String format : ScrapeFormatsBenchmark.FORMATS) {
			Optional<JsonNode> starter = scrapeFormatResult(format, "starter");
			Optional<JsonNode> stock = scrapeFormatResult(format, "stock");
			if (starter.isPresent() && stock.isPresent()) {
				String at = " at " + ScrapeFormatsBenchmark.SERIES + " series, " + format;
				double time = score(starter.get()) / score(stock.get());
				row(md, "Scrape ≤ 0.5 × stock (time)" + at, String.format(Locale.ROOT, "%.1f ms vs %.1f ms: %.2f ×",
						score(starter.get()), score(stock.get()), time), time <= 0.5);
				double allocated = allocation(starter.get()) / allocation(stock.get());
				row(md, "Scrape ≤ 0.5 × stock (allocation)" + at,
						String.format(Locale.ROOT, "%.1f MB vs %.1f MB: %.3f ×", allocation(starter.get()) / 1e6,
								allocation(stock.get()) / 1e6, allocated),
						allocated <= 0.5);
			}
		}
		if (this.startup.isComplete()) {
			Sample without = this.startup.millis("without-starter");
			Sample added = this.startup.addedMillis();
			double ratio = (without.mean() + added.mean()) / without.mean();
			boolean precise = this.startup.isPreciseEnough();
			row(md, String.format(Locale.ROOT,
					"Start-up ≤ %.2f × the same controller without the starter (mean of %d pairs, the 95 %% "
							+ "interval of the added time narrower than %.0f %% of the time without)",
					1 + StartupComparison.PRECISION, added.count(), 100 * StartupComparison.PRECISION),
					String.format(Locale.ROOT, "%+.0f ms [%+.0f, %+.0f] on %.0f ms: %.3f ×; interval %.1f %% wide, %s",
							added.mean(), added.mean() - added.confidence95(), added.mean() + added.confidence95(),
							without.mean(), ratio, 100 * this.startup.intervalShare(),
							precise ? "narrow enough" : "**not narrow enough** at the cap"),
					precise && ratio <= 1 + StartupComparison.PRECISION);
		}
		Double perSeries = this.probes.get("heap-per-series");
		if (perSeries != null) {
			row(md, "≤ 3 KiB heap per operation series",
					String.format(Locale.ROOT, "%.0f B (%.2f KiB)", perSeries, perSeries / 1024),
					perSeries <= 3 * 1024);
		}
		md.append('\n');
	}

	private void ratioTarget(StringBuilder md, String target, String measured, String baseline, int threads,
			double limit) {
		Optional<JsonNode> a = recordingResult(measured, threads);
		Optional<JsonNode> b = recordingResult(baseline, threads);
		if (a.isPresent() && b.isPresent()) {
			double ratio = score(a.get()) / score(b.get());
			noteMiss(measured, threads, ratio <= limit);
			row(md, target, String.format(Locale.ROOT, "%.1f ns/op vs %.1f ns/op: %.2f ×", score(a.get()),
					score(b.get()), ratio), ratio <= limit);
		}
	}

	private void allocationTarget(StringBuilder md, String target, String measured, int threads, double limit) {
		recordingResult(measured, threads).ifPresent((result) -> {
			double bytes = allocation(result);
			noteMiss(measured, threads, bytes <= limit);
			row(md, target, String.format(Locale.ROOT, "%.1f B/op", bytes), bytes <= limit);
		});
	}

	private void noteMiss(String benchmark, int threads, boolean met) {
		if (!met && threads == 1) {
			this.missed.add(benchmark);
		}
	}

	/**
	 * Where the time of each missed 1-thread recording target goes: the methods on top of
	 * the benchmark thread's stack, as async-profiler sampled them.
	 */
	private void profiles(StringBuilder md) {
		List<String> profiled = this.missed.stream().filter(this.profiles::containsKey).toList();
		if (profiled.isEmpty()) {
			return;
		}
		md.append("## Profiles of the missed recording targets\n\n")
			.append("Each missed 1-thread recording target's benchmark, run again alone (1 fork, 5 × 1 s) under ")
			.append("async-profiler on a CPU timer: the methods on top of the benchmark thread's stack, inlined ")
			.append("ones included. `[vdso]` is the kernel's clock, which every timed variant reads twice. ")
			.append("The notes below say why each target is missed.\n\n");
		for (String benchmark : profiled) {
			String[] variant = VARIANTS.stream()
				.filter((candidate) -> candidate[0].equals(benchmark))
				.findFirst()
				.orElse(new String[] { benchmark, benchmark, benchmark });
			md.append("### ")
				.append(variant[1])
				.append(": ")
				.append(variant[2])
				.append("\n\n```\n")
				.append(this.profiles.get(benchmark))
				.append("\n```\n\n");
		}
	}

	private static void row(StringBuilder md, String target, String measured, boolean met) {
		md.append("| ")
			.append(target)
			.append(" | ")
			.append(measured)
			.append(" | ")
			.append(met ? "met" : "**missed**")
			.append(" |\n");
	}

	private void recording(StringBuilder md) {
		md.append("## Recording one operation\n\n")
			.append("Trivial work timed with each variant; the label value cycles over 50 provisioners. ")
			.append("Mean time per operation (± the 99.9% error JMH reports), as a ratio to A (hand-written ")
			.append("timer) and to F (the floor), and bytes allocated per operation.\n\n");
		for (int threads : new int[] { 1, 2 }) {
			md.append("### ").append(threads).append(threads == 1 ? " thread" : " threads").append("\n\n");
			int forks = recordingResult("a_handWrittenTimer", threads).map((result) -> result.path("forks").asInt(1))
				.orElse(1);
			if (forks > 1) {
				md.append(String.format(Locale.ROOT, "Each row is the mean over the iterations of %d forks, ", forks))
					.append("one after the other: on two cores the two benchmark threads share the machine with ")
					.append("the JVM's own threads, and one fork's mean can move by two times from one run to the ")
					.append("next.\n\n");
			}
			md.append("| | variant | ns/op | × A | × F | B/op |\n|---|---|---|---|---|---|\n");
			double a = recordingResult("a_handWrittenTimer", threads).map(PerformanceReport::score).orElse(Double.NaN);
			double f = recordingResult("f_prometheusHistogramFloor", threads).map(PerformanceReport::score)
				.orElse(Double.NaN);
			for (String[] variant : VARIANTS) {
				recordingResult(variant[0], threads).ifPresent((result) -> md.append(String.format(Locale.ROOT,
						"| %s | %s | %.1f ± %.1f | %.2f | %.2f | %.1f |%n", variant[1], variant[2], score(result),
						error(result), score(result) / a, score(result) / f, allocation(result))));
			}
			md.append('\n');
		}
	}

	private void scrape(StringBuilder md) {
		md.append("## Scrape\n\n")
			.append("One `/actuator/prometheus` rendering (`PrometheusMeterRegistry.scrape()`) of a registry with ")
			.append("N operation series (a histogram with the 40 default buckets and an in-flight gauge each): the ")
			.append("starter's auto-configured registry, series created through `ControllerOperations`, against ")
			.append("a stock registry with the same meters registered by hand. ");
		boolean interleaved = this.results.stream()
			.filter((result) -> result.get("benchmark").asString().endsWith("ScrapeBenchmark.scrape"))
			.allMatch((result) -> result.path(InterleavedForks.MARKER).asBoolean(false));
		if (interleaved) {
			md.append("The forks of the two registries ran in turns, one of each per round, and JMH collected ")
				.append("garbage between iterations, so that a scrape is timed without collecting the garbage of ")
				.append("earlier ones (see the notes). ");
		}
		else {
			md.append("These results come from a run made before the forks of the two registries ran in turns and ")
				.append("JMH collected garbage between iterations: rerun the command above. ");
		}
		md.append("Mean time per scrape over the iterations of all forks (± the 99.9% error, computed as JMH ")
			.append("computes it), bytes allocated per scrape, and the collections JMH's GC profiler counted in the ")
			.append("measured iterations.\n\n")
			.append("| series | starter ms | stock ms | starter / stock | starter MB allocated | stock MB allocated ")
			.append("| collections while timed, starter / stock |\n")
			.append("|---|---|---|---|---|---|---|\n");
		for (String series : scrapeSeries()) {
			Optional<JsonNode> starter = scrapeResult(series, "starter");
			Optional<JsonNode> stock = scrapeResult(series, "stock");
			if (starter.isPresent() && stock.isPresent()) {
				md.append(String.format(Locale.ROOT,
						"| %s | %.1f ± %.1f | %.1f ± %.1f | %.2f | %.1f | %.1f | %.0f / %.0f |%n", series,
						score(starter.get()), error(starter.get()), score(stock.get()), error(stock.get()),
						score(starter.get()) / score(stock.get()), allocation(starter.get()) / 1e6,
						allocation(stock.get()) / 1e6, collections(starter.get()), collections(stock.get())));
			}
		}
		md.append('\n');
		scrapeFormats(md);
	}

	private void scrapeFormats(StringBuilder md) {
		if (ScrapeFormatsBenchmark.FORMATS.stream()
			.noneMatch((format) -> scrapeFormatResult(format, "stock").isPresent())) {
			return;
		}
		md.append("### In each format, with `operations.backend=prometheus`\n\n")
			.append("One scrape of ")
			.append(ScrapeFormatsBenchmark.SERIES)
			.append(" operation series in each format Prometheus asks for: the starter's registry with ")
			.append("`operations.backend=prometheus`, written by `ScrapeWriter` (the starter's histograms rendered ")
			.append("straight to bytes, the in-flight gauges and every other family by the standard writer), against ")
			.append("the stock registry's snapshots through the standard writer, as Spring Boot's endpoint writes ")
			.append("them. Both write into a sink that counts the bytes and drops them. The forks of the two ")
			.append("registries ran in turns, with a collection between iterations.\n\n")
			.append("| format | starter ms | stock ms | starter / stock | starter MB allocated | stock MB allocated ")
			.append("| starter / stock allocated | collections while timed, starter / stock |\n")
			.append("|---|---|---|---|---|---|---|---|\n");
		for (String format : ScrapeFormatsBenchmark.FORMATS) {
			Optional<JsonNode> starter = scrapeFormatResult(format, "starter");
			Optional<JsonNode> stock = scrapeFormatResult(format, "stock");
			if (starter.isPresent() && stock.isPresent()) {
				md.append(String.format(Locale.ROOT,
						"| %s | %.1f ± %.1f | %.1f ± %.1f | %.2f | %.1f | %.1f | %.3f | %.0f / %.0f |%n", format,
						score(starter.get()), error(starter.get()), score(stock.get()), error(stock.get()),
						score(starter.get()) / score(stock.get()), allocation(starter.get()) / 1e6,
						allocation(stock.get()) / 1e6, allocation(starter.get()) / allocation(stock.get()),
						collections(starter.get()), collections(stock.get())));
			}
		}
		md.append('\n');
	}

	/**
	 * The start-up and memory section on its own.
	 * @return its markdown
	 */
	String startupSection() {
		StringBuilder md = new StringBuilder();
		md.append("## Start-up and memory\n\n")
			.append("One controller (`OperatorApplication`: a Java Operator SDK reconciler on a fabric8 client of the ")
			.append("fabric8 mock API server, Spring MVC, Actuator and the Prometheus registry; its code uses nothing ")
			.append("of the starter, its `operator-application.yaml` declares an operation, catalog metrics and rules) ")
			.append("started with the starter's auto-configurations and with them excluded ")
			.append("(`spring.autoconfigure.exclude`), on the same class path with the same configuration: what ")
			.append("adding the starter to an existing controller costs. Each run is a fresh JVM that times its one ")
			.append("`SpringApplication.run` up to a ready application (web server started, operator's informers ")
			.append("synced, start-up checks done), then measures the heap used after a full collection.");
		if (!this.startup.isComplete()) {
			md.append(" `performance-probes.json` holds no start-up runs (it was written before they were kept ")
				.append("run by run): rerun the command above to fill this section.\n\n");
		}
		else {
			Sample starter = this.startup.millis("starter");
			Sample without = this.startup.millis("without-starter");
			Sample added = this.startup.addedMillis();
			md.append(String.format(Locale.ROOT, " The runs came in %d pairs, one run of each variant in a random ",
					Math.min(starter.count(), without.count())))
				.append(String.format(Locale.ROOT, "order, after %d warm-up launches whose figures were discarded. ",
						this.startup.warmUpRuns()))
				.append(stoppingRule())
				.append("Every run has the same JVM options, ")
				.append(String.join(" ",
						ProbeProcess.STARTUP_OPTIONS.stream().map((option) -> "`" + option + "`").toList()))
				.append(" (see the notes). The start-up target is judged on what the starter adds to the mean, the ")
				.append("mean of the differences within each pair, with its 95 % confidence interval; the mean of ")
				.append("each variant comes with its own, and the medians are shown beside them.\n\n")
				.append("| | starter | without starter | starter / without | added by the starter |\n")
				.append("|---|---|---|---|---|\n")
				.append(String.format(Locale.ROOT, "| start-up, median ms | %.0f | %.0f | %.2f | %+.0f ms |%n",
						starter.median(), without.median(), starter.median() / without.median(),
						starter.median() - without.median()))
				.append(String.format(Locale.ROOT,
						"| start-up, mean ± 95 %% CI, ms | %.0f ± %.0f | %.0f ± %.0f | %.2f | %+.0f ± %.0f ms |%n",
						starter.mean(), starter.confidence95(), without.mean(), without.confidence95(),
						starter.mean() / without.mean(), added.mean(), added.confidence95()))
				.append(String.format(Locale.ROOT, "| start-up, standard deviation, ms | %.0f | %.0f | | |%n",
						starter.standardDeviation(), without.standardDeviation()));
			Sample starterHeap = this.startup.heap("starter");
			Sample withoutHeap = this.startup.heap("without-starter");
			if (!starterHeap.isEmpty() && !withoutHeap.isEmpty()) {
				md.append(String.format(Locale.ROOT,
						"| heap after start, median MiB | %.1f | %.1f | %.2f | %+.1f MiB |%n",
						starterHeap.median() / (1 << 20), withoutHeap.median() / (1 << 20),
						starterHeap.median() / withoutHeap.median(),
						(starterHeap.median() - withoutHeap.median()) / (1 << 20)));
			}
			md.append('\n');
		}
		Double perSeries = this.probes.get("heap-per-series");
		if (perSeries != null) {
			md.append(String.format(Locale.ROOT,
					"Heap retained per operation series (duration histogram with 40 buckets, its success "
							+ "timer, the in-flight gauge and the starter's caches), measured over 10,000 new series "
							+ "on a Prometheus registry: **%.0f bytes**.%n%n",
					perSeries));
		}
		return md.toString();
	}

	/** How the number of pairs was decided, as the run recorded it. */
	private String stoppingRule() {
		if (this.startup.maxPairs() == 0) {
			return "";
		}
		return String.format(Locale.ROOT,
				"Pairs were added, from %d on, until the 95 %% confidence interval of the mean difference within a "
						+ "pair was narrower than %.0f %% of the mean start-up without the starter, the target's "
						+ "margin, with a cap of %d pairs: %s after %d pairs (%.1f %%). ",
				this.startup.minPairs(), 100 * StartupComparison.PRECISION, this.startup.maxPairs(),
				this.startup.isPreciseEnough() ? "reached" : "not reached", this.startup.addedMillis().count(),
				100 * this.startup.intervalShare());
	}

	private Optional<JsonNode> recordingResult(String method, int threads) {
		return find((result) -> result.get("benchmark").asText().endsWith("RecordingBenchmark." + method)
				&& result.get("threads").asInt() == threads);
	}

	private Optional<JsonNode> scrapeResult(String series, String registry) {
		return find((result) -> result.get("benchmark").asText().endsWith("ScrapeBenchmark.scrape")
				&& result.get("params").get("series").asText().equals(series)
				&& result.get("params").get("registry").asText().equals(registry));
	}

	/** The sizes the results hold scrape rows of, smallest first. */
	private List<String> scrapeSeries() {
		return this.results.stream()
			.filter((result) -> result.get("benchmark").asText().endsWith("ScrapeBenchmark.scrape"))
			.map((result) -> result.get("params").get("series").asText())
			.distinct()
			.sorted(java.util.Comparator.comparingInt(Integer::parseInt))
			.toList();
	}

	private Optional<JsonNode> scrapeFormatResult(String format, String registry) {
		return find((result) -> result.get("benchmark").asText().endsWith(SCRAPE_FORMATS)
				&& result.get("params").get("format").asText().equals(format)
				&& result.get("params").get("registry").asText().equals(registry));
	}

	private Optional<JsonNode> find(java.util.function.Predicate<JsonNode> matches) {
		return this.results.stream().filter(matches).findFirst();
	}

	private static double score(JsonNode result) {
		return result.get("primaryMetric").get("score").asDouble();
	}

	private static double error(JsonNode result) {
		double error = result.get("primaryMetric").get("scoreError").asDouble();
		return Double.isNaN(error) ? 0 : error;
	}

	private static double allocation(JsonNode result) {
		return secondary(result, "gc.alloc.rate.norm");
	}

	/** Collections in the measured iterations, all forks together (JMH sums them). */
	private static double collections(JsonNode result) {
		return secondary(result, "gc.count");
	}

	private static double secondary(JsonNode result, String metric) {
		JsonNode secondary = result.get("secondaryMetrics");
		for (var entry : secondary.properties()) {
			if (entry.getKey().endsWith(metric)) {
				return entry.getValue().get("score").asDouble();
			}
		}
		return Double.NaN;
	}

	private String jmhVersion() {
		return this.results.isEmpty() ? "" : this.results.get(0).path("jmhVersion").asText();
	}

}
