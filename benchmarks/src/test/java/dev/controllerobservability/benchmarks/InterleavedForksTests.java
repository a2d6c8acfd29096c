package dev.controllerobservability.benchmarks;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Forks run one at a time are merged as if JMH had run them as forks of one run.
 */
class InterleavedForksTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void mergesTheIterationsOfEveryForkIntoOneScoreWithItsError() {
		JsonNode merged = InterleavedForks.merge(JSON, List.of(fork("[[1.0, 2.0, 3.0]]", "[[1.0, 2.0, 0.0]]"),
				fork("[[4.0, 5.0, 6.0]]", "[[3.0, 0.0, 0.0]]")));
		assertThat(merged.get("forks").asInt()).isEqualTo(2);
		assertThat(merged.get(InterleavedForks.MARKER).asBoolean()).isTrue();
		JsonNode primary = merged.get("primaryMetric");
		assertThat(primary.get("rawData")).isEqualTo(JSON.readTree("[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"));
		assertThat(primary.get("score").asDouble()).isEqualTo(3.5);
		// Standard deviation of 1..6 is 1.8708; t(5) at 99.9 % is 6.8688; 6 iterations.
		assertThat(primary.get("scoreError").asDouble()).isCloseTo(6.8688 * 1.8708 / Math.sqrt(6), within(0.001));
		assertThat(primary.get("scorePercentiles").get("50.0").asDouble()).isEqualTo(3.5);
		assertThat(primary.get("scoreUnit").asString()).isEqualTo("ms/op");
		JsonNode secondary = merged.get("secondaryMetrics");
		assertThat(secondary.get("gc.count").get("score").asDouble()).isEqualTo(6.0);
		assertThat(secondary.get("gc.alloc.rate.norm").get("score").asDouble()).isEqualTo(150.0);
	}

	private static JsonNode fork(String times, String collections) {
		return JSON.readTree("""
				{"benchmark": "dev.controllerobservability.benchmarks.ScrapeBenchmark.scrape", "forks": 1,
				 "params": {"series": "50000", "registry": "starter"},
				 "primaryMetric": {"score": 0, "scoreError": 0, "scoreUnit": "ms/op", "rawData": %s},
				 "secondaryMetrics": {
				  "gc.alloc.rate.norm": {"score": 0, "scoreUnit": "B/op", "rawData": [[100.0, 200.0, 100.0, 200.0]]},
				  "gc.count": {"score": 0, "scoreUnit": "counts", "rawData": %s}}}
				""".formatted(times, collections));
	}

}
