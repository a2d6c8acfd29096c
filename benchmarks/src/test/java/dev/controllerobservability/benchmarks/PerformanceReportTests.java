package dev.controllerobservability.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report states each target as met or missed from JMH's JSON, with the numbers.
 */
class PerformanceReportTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void judgesEachTargetFromTheJmhResults(@TempDir Path directory) throws Exception {
		List<JsonNode> results = new ArrayList<>();
		results.add(recording("a_handWrittenTimer", 600, 720));
		results.add(recording("b_stockObservation", 1500, 1800));
		results.add(recording("c_operationsObserve", 180, 0));
		results.add(recording("a0_cachedMicrometerTimer", 150, 0));
		results.add(recording("e_preBoundHandle", 170, 0.01));
		results.add(recording("f_prometheusHistogramFloor", 80, 0));
		results.add(scrape("10000", "starter", 400, 0, true));
		results.add(scrape("10000", "stock", 480, 3, true));
		PerformanceReport report = new PerformanceReport(results, Map.of("heap-per-series", 2500.0),
				StartupComparison.fromJson(MissingNode.getInstance()), Duration.ofMinutes(10));
		String markdown = report.markdown();
		assertThat(markdown).contains("| C ≤ 1.0 × A (1 thread) | 180.0 ns/op vs 600.0 ns/op: 0.30 × | met |",
				"| C ≤ 0.5 × B (1 thread) | 180.0 ns/op vs 1500.0 ns/op: 0.12 × | met |",
				"| E ≤ 1.10 × A0 (1 thread) | 170.0 ns/op vs 150.0 ns/op: 1.13 × | **missed** |",
				"| E allocates 0 B/op (1 thread) | 0.0 B/op | met |",
				"| Scrape ≤ 1.1 × stock registry at 10000 series | 400.0 ms vs 480.0 ms: 0.83 × | met |",
				"| 10000 | 400.0 ± 1.0 | 480.0 ± 1.0 | 0.83 | 100.0 | 100.0 | 0 / 3 |",
				"The forks of the two registries ran in turns",
				"| ≤ 3 KiB heap per operation series | 2500 B (2.44 KiB) | met |", "the whole run took 10 min");
		Path png = directory.resolve("performance.png");
		report.chart(png);
		assertThat(Files.size(png)).isGreaterThan(1000);
	}

	@Test
	void showsTheProfileOfEachMissedOneThreadRecordingTarget() throws Exception {
		List<JsonNode> results = new ArrayList<>();
		results.add(recording("c_operationsObserve", 180, 0));
		results.add(recording("a_handWrittenTimer", 600, 720));
		results.add(recording("a0_cachedMicrometerTimer", 150, 0));
		results.add(recording("e_preBoundHandle", 170, 0));
		PerformanceReport report = new PerformanceReport(results, Map.of(),
				StartupComparison.fromJson(MissingNode.getInstance()), Duration.ofMinutes(10));
		// E misses E ≤ 1.10 × A0; C meets C ≤ 1.0 × A.
		assertThat(report.missedRecordingBenchmarks()).containsExactly("e_preBoundHandle");
		String markdown = report
			.profiles(Map.of("e_preBoundHandle", "  ns  percent  samples  top\n  100   50.00%  1  [vdso]",
					"c_operationsObserve", "not shown"))
			.markdown();
		assertThat(markdown).contains("## Profiles of the missed recording targets",
				"### E: pre-bound OperationHandle\n\n```\n  ns  percent  samples  top\n  100   50.00%  1  [vdso]\n```")
			.doesNotContain("not shown");
	}

	@Test
	void judgesStartUpOnTheMeanPairedDifferenceAndItsIntervalAndReportsMediansBeside() throws Exception {
		// The last pair ran while the machine was busy: it widens the interval of the
		// added time beyond the target's margin.
		JsonNode probes = JSON.readTree("""
				{"heap-per-series": 2500.0,
				 "startup": {"warm-up-runs": 2,
				  "order": ["starter", "without-starter", "without-starter", "starter", "starter", "without-starter",
				            "starter", "without-starter", "without-starter", "starter"],
				  "starter": {"startup-ms": [4400, 4600, 4200, 4520, 9000],
				              "heap-after-start": [23068672, 23068672, 23068672, 23068672, 23068672]},
				  "without-starter": {"startup-ms": [4000, 4000, 4000, 4100, 6600],
				                      "heap-after-start": [20971520, 20971520, 20971520, 20971520, 20971520]}},
				 "run-seconds": 600}
				""");
		StartupComparison startup = StartupComparison.fromJson(probes.path("startup"));
		PerformanceReport report = new PerformanceReport(List.of(), Map.of(), startup, Duration.ofMinutes(10));
		// Medians 4520 and 4000. Means 5344 and 4540, standard deviations 2049.3 and
		// 1152.4; differences within the pairs 400, 600, 200, 420, 2400: mean 804,
		// standard deviation 903.4. The 95 % intervals are these × t(4) / √5, t(4) =
		// 2.776: +804 ± 1122 ms, an interval 49.4 % of 4540 ms wide.
		assertThat(report.markdown())
			.contains("| Start-up ≤ 1.05 × the same controller without the starter (mean of 5 pairs, the 95 % interval "
					+ "of the added time narrower than 5 % of the time without) | +804 ms [-318, +1926] on 4540 ms: "
					+ "1.177 ×; interval 49.4 % wide, **not narrow enough** at the cap | **missed** |",
					"The runs came in 5 pairs, one run of each variant in a random order, after 2 warm-up launches",
					"| start-up, median ms | 4520 | 4000 | 1.13 | +520 ms |",
					"| start-up, mean ± 95 % CI, ms | 5344 ± 2545 | 4540 ± 1431 | 1.18 | +804 ± 1122 ms |",
					"| start-up, standard deviation, ms | 2049 | 1152 | | |",
					"| heap after start, median MiB | 22.0 | 20.0 | 1.10 | +2.0 MiB |");
	}

	@Test
	void keepsEveryStartUpRunInTheProbesFile() throws Exception {
		JsonNode written = JSON.readTree("""
				{"warm-up-runs": 1, "min-pairs": 20, "max-pairs": 60, "order": ["without-starter", "starter"],
				 "starter": {"startup-ms": [4400.5], "heap-after-start": [1.0]},
				 "without-starter": {"startup-ms": [4000.25], "heap-after-start": [2.0]}}
				""");
		assertThat(StartupComparison.fromJson(written).toJson(JSON)).isEqualTo(written);
	}

	@Test
	void saysWhatFilesWrittenBeforeTheInterleavedRunsLack() throws Exception {
		JsonNode probes = JSON.readTree("""
				{"heap-after-start-starter": 2.8E7, "heap-after-start-without-starter": 2.7E7,
				 "heap-per-series": 2468.1, "run-seconds": 969.0}
				""");
		List<JsonNode> results = List.of(scrape("50000", "starter", 1500, 38, false),
				scrape("50000", "stock", 1800, 27, false));
		PerformanceReport report = new PerformanceReport(results, Map.of("heap-per-series", 2468.1),
				StartupComparison.fromJson(probes.path("startup")), Duration.ofMinutes(16));
		assertThat(report.markdown())
			.contains("holds no start-up runs", "**2468 bytes**",
					"These results come from a run made before the forks of the two registries ran in turns",
					"| 50000 | 1500.0 ± 1.0 | 1800.0 ± 1.0 | 0.83 | 100.0 | 100.0 | 38 / 27 |")
			.doesNotContain("Start-up ≤ 1.05 ×")
			.doesNotContain("| start-up,");
	}

	@Test
	void judgesTheScrapeInEachFormatOnTimeAndAllocation() throws Exception {
		List<JsonNode> results = new java.util.ArrayList<>();
		for (String format : ScrapeFormatsBenchmark.FORMATS) {
			results.add(scrapeFormat(format, "starter", 500, 7e7));
			results.add(scrapeFormat(format, "stock", format.equals("protobuf") ? 900 : 2000, 8e8));
		}
		PerformanceReport report = new PerformanceReport(results, Map.of(),
				StartupComparison.fromJson(JSON.readTree("{}").path("startup")), Duration.ofMinutes(5));
		assertThat(report.markdown()).contains(
				"| Scrape ≤ 0.5 × stock (time) at 50000 series, text | 500.0 ms vs 2000.0 ms: 0.25 × | met |",
				"| Scrape ≤ 0.5 × stock (allocation) at 50000 series, text | 70.0 MB vs 800.0 MB: 0.088 × | met |",
				"| Scrape ≤ 0.5 × stock (time) at 50000 series, protobuf | 500.0 ms vs 900.0 ms: 0.56 × | **missed** |",
				"| openmetrics | 500.0 ± 1.0 | 2000.0 ± 1.0 | 0.25 | 70.0 | 800.0 | 0.088 | 0 / 0 |");
	}

	private static JsonNode scrapeFormat(String format, String registry, double millis, double bytes) {
		return JSON.readTree("""
				{"benchmark": "dev.controllerobservability.benchmarks.ScrapeFormatsBenchmark.scrape", "threads": 1,
				 "interleavedForks": true,
				 "params": {"format": "%s", "registry": "%s"},
				 "primaryMetric": {"score": %s, "scoreError": 1.0, "scoreUnit": "ms/op"},
				 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": %s, "scoreUnit": "B/op"},
				  "gc.count": {"score": 0, "scoreUnit": "counts"}}}
				""".formatted(format, registry, millis, bytes));
	}

	private static JsonNode recording(String method, double nanos, double bytes) {
		return JSON.readTree("""
				{"benchmark": "dev.controllerobservability.benchmarks.RecordingBenchmark.%s", "threads": 1,
				 "primaryMetric": {"score": %s, "scoreError": 1.0, "scoreUnit": "ns/op"},
				 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": %s, "scoreUnit": "B/op"}}}
				""".formatted(method, nanos, bytes));
	}

	private static JsonNode scrape(String series, String registry, double millis, int collections,
			boolean interleaved) {
		return JSON.readTree("""
				{"benchmark": "dev.controllerobservability.benchmarks.ScrapeBenchmark.scrape", "threads": 1,
				 "interleavedForks": %s,
				 "params": {"series": "%s", "registry": "%s"},
				 "primaryMetric": {"score": %s, "scoreError": 1.0, "scoreUnit": "ms/op"},
				 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 1.0E8, "scoreUnit": "B/op"},
				                      "gc.count": {"score": %s, "scoreUnit": "counts"}}}
				""".formatted(interleaved, series, registry, millis, collections));
	}

}
