package dev.controllerobservability.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.ListStatistics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Runs the forks of two variants of a benchmark in turns (one fork of each per round, in
 * a random order) instead of all forks of one variant before those of the other, and
 * merges each variant's forks into one JMH result: a drift in the load of a shared
 * machine then hits both variants alike.
 */
final class InterleavedForks {

	/**
	 * Field set on a merged result: its forks ran in turns with the other variant's, with
	 * a collection between iterations.
	 */
	static final String MARKER = "interleavedForks";

	/** Secondary metrics that JMH sums over iterations instead of averaging. */
	private static final Set<String> SUMMED = Set.of("gc.count", "gc.time");

	/** The percentiles JMH writes for every metric. */
	private static final List<String> PERCENTILES = List.of("0.0", "50.0", "90.0", "95.0", "99.0", "99.9", "99.99",
			"99.999", "99.9999", "100.0");

	private InterleavedForks() {
	}

	/**
	 * Runs the benchmark.
	 * @param json reads JMH's result files
	 * @param result where JMH writes each fork's result
	 * @param options the options of every run, to which one fork, the collection between
	 * iterations and the variant's parameter are added
	 * @param param the parameter that tells the variants apart
	 * @param variants its two values
	 * @param rounds forks of each variant
	 * @param random decides the order within each round
	 * @return one merged result per variant, in the order given
	 * @throws RunnerException if JMH fails
	 * @throws IOException if a result cannot be read
	 */
	static List<JsonNode> run(JsonMapper json, Path result, UnaryOperator<ChainedOptionsBuilder> options, String param,
			List<String> variants, int rounds, Random random) throws RunnerException, IOException {
		Map<String, List<JsonNode>> forks = new LinkedHashMap<>();
		for (int round = 0; round < rounds; round++) {
			List<String> order = new ArrayList<>(variants);
			Collections.shuffle(order, random);
			for (String variant : order) {
				ChainedOptionsBuilder builder = options.apply(new OptionsBuilder())
					.forks(1)
					.shouldDoGC(true)
					.param(param, variant)
					.result(result.toString());
				new Runner(builder.build()).run();
				json.readTree(Files.readString(result))
					.forEach((fork) -> forks.computeIfAbsent(variant, (key) -> new ArrayList<>()).add(fork));
			}
		}
		List<JsonNode> merged = new ArrayList<>();
		for (String variant : variants) {
			merged.add(merge(json, forks.get(variant)));
		}
		return merged;
	}

	/**
	 * Merges JMH results of one benchmark and parameter set, one fork each, as if JMH had
	 * run them as forks of one run: the iterations of all forks make the score, its 99.9
	 * % error and its percentiles.
	 * @param json creates nodes
	 * @param forks the results
	 * @return the merged result
	 */
	static JsonNode merge(JsonMapper json, List<JsonNode> forks) {
		ObjectNode merged = (ObjectNode) forks.get(0).deepCopy();
		int count = forks.stream().mapToInt((fork) -> fork.path("forks").asInt(1)).sum();
		merged.put("forks", count);
		merged.put(MARKER, true);
		merged.set("primaryMetric",
				mergeMetric(json, forks.stream().map((fork) -> fork.get("primaryMetric")).toList(), false));
		ObjectNode secondary = merged.putObject("secondaryMetrics");
		forks.get(0).path("secondaryMetrics").properties().forEach((entry) -> {
			List<JsonNode> metrics = forks.stream()
				.map((fork) -> fork.path("secondaryMetrics").path(entry.getKey()))
				.filter(JsonNode::isObject)
				.toList();
			secondary.set(entry.getKey(), mergeMetric(json, metrics, SUMMED.contains(entry.getKey())));
		});
		return merged;
	}

	private static ObjectNode mergeMetric(JsonMapper json, List<JsonNode> metrics, boolean summed) {
		ArrayNode rawData = json.createArrayNode();
		ListStatistics statistics = new ListStatistics();
		for (JsonNode metric : metrics) {
			for (JsonNode fork : metric.path("rawData")) {
				rawData.add(fork);
				fork.forEach((iteration) -> statistics.addValue(iteration.asDouble()));
			}
		}
		ObjectNode merged = (ObjectNode) metrics.get(0).deepCopy();
		merged.set("rawData", rawData);
		if (summed) {
			merged.put("score", statistics.getSum());
			merged.put("scoreError", Double.NaN);
			merged.putArray("scoreConfidence").add(Double.NaN).add(Double.NaN);
		}
		else {
			double error = statistics.getMeanErrorAt(0.999);
			merged.put("score", statistics.getMean());
			merged.put("scoreError", error);
			merged.putArray("scoreConfidence").add(statistics.getMean() - error).add(statistics.getMean() + error);
		}
		ObjectNode percentiles = merged.putObject("scorePercentiles");
		for (String percentile : PERCENTILES) {
			percentiles.put(percentile, statistics.getPercentile(Double.parseDouble(percentile)));
		}
		return merged;
	}

}
