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
		results.add(recording("e_preBoundHandle", 170, 0.01));
		results.add(recording("f_prometheusHistogramFloor", 80, 0));
		results.add(scrape("10000", "starter", 400));
		results.add(scrape("10000", "stock", 480));
		PerformanceReport report = new PerformanceReport(results, Map.of("heap-per-series", 2500.0),
				Duration.ofMinutes(10));
		String markdown = report.markdown();
		assertThat(markdown).contains("| C ≤ 1.0 × A (1 thread) | 180.0 ns/op vs 600.0 ns/op: 0.30 × | met |",
				"| C ≤ 0.5 × B (1 thread) | 180.0 ns/op vs 1500.0 ns/op: 0.12 × | met |",
				"| E ≤ 2 × F (1 thread) | 170.0 ns/op vs 80.0 ns/op: 2.13 × | **missed** |",
				"| E allocates 0 B/op (1 thread) | 0.0 B/op | met |",
				"| Scrape ≤ 1.1 × stock registry at 10000 series | 400.0 ms vs 480.0 ms: 0.83 × | met |",
				"| ≤ 3 KiB heap per operation series | 2500 B (2.44 KiB) | met |", "the whole run took 10 min");
		Path png = directory.resolve("performance.png");
		report.chart(png);
		assertThat(Files.size(png)).isGreaterThan(1000);
	}

	@Test
	void reportsTheStartUpRatioAndTheMillisecondsTheStarterAdds() throws Exception {
		List<JsonNode> results = List.of(startup("starter", 4400), startup("without-starter", 4000));
		PerformanceReport report = new PerformanceReport(results, Map.of("heap-after-start-starter", 22.0 * (1 << 20),
				"heap-after-start-without-starter", 20.0 * (1 << 20)), Duration.ofMinutes(10));
		assertThat(report.markdown()).contains(
				"| Start-up ≤ 1.1 × the same controller without the starter | 4400 ms vs 4000 ms: 1.10 ×, +400 ms | met |",
				"| start-up, ms | 4400 ± 1 | 4000 ± 1 | 1.10 | +400 ms |",
				"| heap after start, MiB | 22.0 | 20.0 | 1.10 | +2.0 MiB |");
	}

	private static JsonNode startup(String application, double millis) {
		return JSON.readTree("""
				{"benchmark": "dev.controllerobservability.benchmarks.StartupBenchmark.start", "threads": 1,
				 "params": {"application": "%s"},
				 "primaryMetric": {"score": %s, "scoreError": 1.0, "scoreUnit": "ms/op"},
				 "secondaryMetrics": {}}
				""".formatted(application, millis));
	}

	private static JsonNode recording(String method, double nanos, double bytes) {
		return JSON.readTree("""
				{"benchmark": "dev.controllerobservability.benchmarks.RecordingBenchmark.%s", "threads": 1,
				 "primaryMetric": {"score": %s, "scoreError": 1.0, "scoreUnit": "ns/op"},
				 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": %s, "scoreUnit": "B/op"}}}
				""".formatted(method, nanos, bytes));
	}

	private static JsonNode scrape(String series, String registry, double millis) {
		return JSON.readTree("""
				{"benchmark": "dev.controllerobservability.benchmarks.ScrapeBenchmark.scrape", "threads": 1,
				 "params": {"series": "%s", "registry": "%s"},
				 "primaryMetric": {"score": %s, "scoreError": 1.0, "scoreUnit": "ms/op"},
				 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 1.0E8, "scoreUnit": "B/op"}}}
				""".formatted(series, registry, millis));
	}

}
