package dev.controllerobservability.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.openjdk.jmh.util.ListStatistics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Start-up time and heap after start-up of the controller with the starter and without it
 * ({@link StartupApplications}), each run a fresh JVM ({@link JvmProbe}). Cold starts of
 * the controller vary by about 15 % on a shared machine, and the load drifts over
 * minutes, so the runs come in pairs, one of each variant in a random order, after
 * warm-up launches that are discarded (they fill the operating system's file caches).
 * Pairs are added until the 95 % confidence interval of the mean difference within a pair
 * is narrower than {@link #PRECISION} of the mean start-up without the starter, the
 * target's margin, or until a cap. Samples are kept so that the report can give means
 * with confidence intervals and medians.
 */
final class StartupComparison {

	/** The variant with the starter, then the one without it. */
	static final List<String> VARIANTS = List.of("starter", "without-starter");

	private static final String MILLIS = "startup-ms";

	private static final String HEAP = "heap-after-start";

	private static final String WARM_UP_RUNS = "warm-up-runs";

	private static final String ORDER = "order";

	private static final String MIN_PAIRS = "min-pairs";

	private static final String MAX_PAIRS = "max-pairs";

	/**
	 * How narrow the 95 % confidence interval of the mean paired difference must be, as a
	 * share of the mean start-up without the starter: the start-up target's margin.
	 */
	static final double PRECISION = 0.05;

	private final int minPairs;

	private final int maxPairs;

	private final int warmUpRuns;

	private final List<String> order;

	private final Map<String, Map<String, List<Double>>> samples;

	private StartupComparison(int warmUpRuns, int minPairs, int maxPairs, List<String> order,
			Map<String, Map<String, List<Double>>> samples) {
		this.warmUpRuns = warmUpRuns;
		this.minPairs = minPairs;
		this.maxPairs = maxPairs;
		this.order = order;
		this.samples = samples;
	}

	/**
	 * Runs the comparison: at least {@code minPairs} pairs, then more until the 95 %
	 * confidence interval of the mean paired difference is narrower than
	 * {@link #PRECISION} of the mean start-up without the starter, at most
	 * {@code maxPairs}.
	 * @param warmUpRuns launches before the measured ones, alternating the variants,
	 * whose results are discarded
	 * @param minPairs the fewest measured pairs: each one run of each variant, in a
	 * random order
	 * @param maxPairs the most measured pairs, when the interval stays wider
	 * @param random decides the order within each pair
	 * @return the samples
	 * @throws IOException if a JVM cannot be started
	 * @throws InterruptedException if interrupted while waiting for one
	 */
	static StartupComparison run(int warmUpRuns, int minPairs, int maxPairs, Random random)
			throws IOException, InterruptedException {
		if (minPairs < 2 || maxPairs < minPairs) {
			throw new IllegalArgumentException(
					"Start-up pairs: need at least 2 and no more than the cap, got " + minPairs + " to " + maxPairs);
		}
		for (int i = 0; i < warmUpRuns; i++) {
			String variant = VARIANTS.get(i % VARIANTS.size());
			System.out.printf("Start-up warm-up %d/%d (%s): %.0f ms%n", i + 1, warmUpRuns, variant,
					ProbeProcess.run("startup", variant).get(MILLIS));
		}
		List<String> order = new ArrayList<>();
		Map<String, Map<String, List<Double>>> samples = new LinkedHashMap<>();
		StartupComparison comparison = new StartupComparison(warmUpRuns, minPairs, maxPairs, order, samples);
		for (int pair = 0; pair < maxPairs && (pair < minPairs || !comparison.isPreciseEnough()); pair++) {
			List<String> variants = new ArrayList<>(VARIANTS);
			if (random.nextBoolean()) {
				Collections.reverse(variants);
			}
			for (String variant : variants) {
				Map<String, Double> results = ProbeProcess.run("startup", variant);
				order.add(variant);
				for (String name : List.of(MILLIS, HEAP)) {
					samples.computeIfAbsent(variant, (key) -> new LinkedHashMap<>())
						.computeIfAbsent(name, (key) -> new ArrayList<>())
						.add(results.get(name));
				}
				System.out.printf("Start-up pair %d (%d to %d) (%s): %.0f ms%n", pair + 1, minPairs, maxPairs, variant,
						results.get(MILLIS));
			}
			Sample added = comparison.addedMillis();
			if (added.count() > 1) {
				System.out.printf("Start-up after %d pairs: %+.0f ± %.0f ms, interval %.1f %% of %.0f ms%n",
						added.count(), added.mean(), added.confidence95(), 100 * comparison.intervalShare(),
						comparison.millis("without-starter").mean());
			}
		}
		return comparison;
	}

	/**
	 * Whether the 95 % confidence interval of the mean paired difference is narrower than
	 * {@link #PRECISION} of the mean start-up without the starter.
	 * @return whether enough pairs ran to judge the target
	 */
	boolean isPreciseEnough() {
		return intervalShare() < PRECISION;
	}

	/**
	 * The width of the 95 % confidence interval of the mean paired difference, as a share
	 * of the mean start-up without the starter.
	 * @return the share, NaN with fewer than two pairs
	 */
	double intervalShare() {
		Sample added = addedMillis();
		if (added.count() < 2) {
			return Double.NaN;
		}
		return 2 * added.confidence95() / millis("without-starter").mean();
	}

	int minPairs() {
		return this.minPairs;
	}

	int maxPairs() {
		return this.maxPairs;
	}

	/**
	 * Reads the samples written by {@link #toJson()}.
	 * @param json the {@code startup} object of {@code performance-probes.json}, or a
	 * missing node for files written before this comparison existed
	 * @return the samples, empty if there are none
	 */
	static StartupComparison fromJson(JsonNode json) {
		List<String> order = new ArrayList<>();
		json.path(ORDER).forEach((variant) -> order.add(variant.asString()));
		Map<String, Map<String, List<Double>>> samples = new LinkedHashMap<>();
		for (String variant : VARIANTS) {
			for (String name : List.of(MILLIS, HEAP)) {
				JsonNode values = json.path(variant).path(name);
				if (values.isArray() && !values.isEmpty()) {
					List<Double> list = new ArrayList<>();
					values.forEach((value) -> list.add(value.asDouble()));
					samples.computeIfAbsent(variant, (key) -> new LinkedHashMap<>()).put(name, list);
				}
			}
		}
		return new StartupComparison(json.path(WARM_UP_RUNS).asInt(0), json.path(MIN_PAIRS).asInt(0),
				json.path(MAX_PAIRS).asInt(0), order, samples);
	}

	ObjectNode toJson(JsonMapper json) {
		ObjectNode node = json.createObjectNode();
		node.put(WARM_UP_RUNS, this.warmUpRuns);
		node.put(MIN_PAIRS, this.minPairs);
		node.put(MAX_PAIRS, this.maxPairs);
		ArrayNode order = node.putArray(ORDER);
		this.order.forEach(order::add);
		this.samples.forEach((variant, byName) -> {
			ObjectNode values = node.putObject(variant);
			byName.forEach((name, list) -> list.forEach(values.putArray(name)::add));
		});
		return node;
	}

	/**
	 * Whether both variants have start-up samples.
	 * @return {@code true} if the report can compare them
	 */
	boolean isComplete() {
		return VARIANTS.stream().allMatch((variant) -> !millis(variant).isEmpty());
	}

	int warmUpRuns() {
		return this.warmUpRuns;
	}

	Sample millis(String variant) {
		return sample(variant, MILLIS);
	}

	Sample heap(String variant) {
		return sample(variant, HEAP);
	}

	/**
	 * What the starter adds to the start-up time: the mean of the differences within each
	 * pair (the difference of the means) with its 95 % confidence interval. Pairs are run
	 * back to back, so a drift of the machine's load cancels out of each difference.
	 * @return the paired differences, starter minus without, in ms
	 */
	Sample addedMillis() {
		List<Double> starter = this.samples.getOrDefault("starter", Map.of()).getOrDefault(MILLIS, List.of());
		List<Double> without = this.samples.getOrDefault("without-starter", Map.of()).getOrDefault(MILLIS, List.of());
		double[] differences = new double[Math.min(starter.size(), without.size())];
		for (int i = 0; i < differences.length; i++) {
			differences[i] = starter.get(i) - without.get(i);
		}
		return new Sample(differences);
	}

	private Sample sample(String variant, String name) {
		return new Sample(this.samples.getOrDefault(variant, Map.of())
			.getOrDefault(name, List.of())
			.stream()
			.mapToDouble(Double::doubleValue)
			.toArray());
	}

	/**
	 * Runs only the start-up comparison and prints the report, for trying out a change
	 * without the whole benchmark run:
	 * {@code StartupComparison [min pairs] [max pairs] [warm-up runs]}.
	 * @param args the fewest and most pairs (default 20 and 60) and the warm-up runs
	 * (default 2)
	 * @throws Exception if a run fails
	 */
	public static void main(String[] args) throws Exception {
		int minPairs = (args.length > 0) ? Integer.parseInt(args[0]) : 20;
		int maxPairs = (args.length > 1) ? Integer.parseInt(args[1]) : 60;
		int warmUps = (args.length > 2) ? Integer.parseInt(args[2]) : 2;
		StartupComparison comparison = run(warmUps, minPairs, maxPairs, new Random());
		System.out.println(JsonMapper.builder()
			.build()
			.writerWithDefaultPrettyPrinter()
			.writeValueAsString(comparison.toJson(JsonMapper.builder().build())));
		System.out.println(new PerformanceReport(List.of(), Map.of(), comparison, Duration.ZERO).startupSection());
	}

	/**
	 * Summary statistics of one set of samples, computed by JMH's statistics.
	 *
	 * @param values the samples
	 */
	record Sample(double[] values) {

		boolean isEmpty() {
			return this.values.length == 0;
		}

		int count() {
			return this.values.length;
		}

		double mean() {
			return statistics().getMean();
		}

		double median() {
			return statistics().getPercentile(50);
		}

		double standardDeviation() {
			return statistics().getStandardDeviation();
		}

		/**
		 * Half the width of the 95 % confidence interval of the mean (Student's t).
		 * @return the interval's half-width, NaN with fewer than two samples
		 */
		double confidence95() {
			return statistics().getMeanErrorAt(0.95);
		}

		private ListStatistics statistics() {
			return new ListStatistics(this.values);
		}

	}

}
