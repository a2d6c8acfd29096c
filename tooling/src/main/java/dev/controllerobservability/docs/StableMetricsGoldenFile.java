package dev.controllerobservability.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.stability.StabilityLevel;

/**
 * The stability contract as a reviewed file, as Kubernetes keeps one: every BETA and
 * STABLE metric with its type, help, labels and buckets. Comparing the running
 * application with the committed file fails when a STABLE metric changed or disappeared,
 * a BETA metric lost a label or changed type or buckets, or a BETA or STABLE metric is
 * not in the file yet. Example, in a test ({@code StableMetricsContract} of
 * {@code controller-observability-spring-boot-test} reads the file and fails with the
 * changes):
 *
 * <pre>{@code
 * StableMetricsContract.assertUnchanged(Path.of("docs/reference/stable-metrics.yaml"),
 *         (committed) -> StableMetricsGoldenFile.differences(committed, reference.entries()),
 *         "./mvnw -pl demo-controller -am verify -Dreference.update=true");
 * }</pre>
 */
public final class StableMetricsGoldenFile {

	private StableMetricsGoldenFile() {
	}

	/**
	 * Renders the golden file of the BETA and STABLE metrics among {@code entries}.
	 * @param entries the application's metrics
	 * @param header a comment line, such as how to refresh the file
	 * @return the YAML
	 */
	public static String render(List<ReferenceEntry> entries, String header) {
		StringBuilder yaml = new StringBuilder("# ").append(header).append("\n");
		for (ReferenceEntry entry : contracted(entries)) {
			yaml.append("- name: ").append(entry.name()).append("\n");
			yaml.append("  type: ").append(entry.type()).append("\n");
			yaml.append("  stability: ").append(entry.stability()).append("\n");
			yaml.append("  help: ").append(quote(entry.help())).append("\n");
			yaml.append("  labels: [").append(String.join(", ", entry.labels())).append("]\n");
			yaml.append("  buckets: ").append(entry.buckets()).append("\n");
		}
		return yaml.toString();
	}

	/**
	 * What changed against the committed file, one readable line per change.
	 * @param committed the committed YAML
	 * @param entries the running application's metrics
	 * @return the changes that break the contract; empty when none does
	 */
	public static List<String> differences(String committed, List<ReferenceEntry> entries) {
		Map<String, Map<String, Object>> golden = parse(committed);
		Map<String, ReferenceEntry> current = new LinkedHashMap<>();
		contracted(entries).forEach((entry) -> current.put(entry.name(), entry));
		List<String> differences = new ArrayList<>();
		golden.forEach((name, expected) -> {
			ReferenceEntry actual = current.get(name);
			String level = String.valueOf(expected.get("stability"));
			if (actual == null) {
				differences.add(level + " metric " + name + " is no longer exposed as BETA or STABLE");
				return;
			}
			if (!level.equals(actual.stability().name())) {
				differences
					.add(level + " metric " + name + " changed stability: " + level + " -> " + actual.stability());
			}
			compare(differences, level, name, "type", expected.get("type"), actual.type());
			compare(differences, level, name, "buckets", doubles(expected.get("buckets")), actual.buckets());
			List<String> expectedLabels = strings(expected.get("labels"));
			TreeSet<String> lost = new TreeSet<>(expectedLabels);
			lost.removeAll(actual.labels());
			TreeSet<String> gained = new TreeSet<>(actual.labels());
			gained.removeAll(expectedLabels);
			if (!lost.isEmpty()) {
				differences.add(level + " metric " + name + " lost label(s) " + lost + ": labels " + expectedLabels
						+ " -> " + actual.labels());
			}
			if ("STABLE".equals(level)) {
				if (!gained.isEmpty()) {
					differences.add("STABLE metric " + name + " gained label(s) " + gained + ": labels "
							+ expectedLabels + " -> " + actual.labels());
				}
				compare(differences, level, name, "help", expected.get("help"), actual.help());
			}
		});
		current.values()
			.stream()
			.filter((entry) -> !golden.containsKey(entry.name()))
			.forEach((entry) -> differences
				.add(entry.stability() + " metric " + entry.name() + " is not in the golden file yet"));
		return differences;
	}

	private static List<ReferenceEntry> contracted(List<ReferenceEntry> entries) {
		return entries.stream()
			.filter((entry) -> entry.stability() == StabilityLevel.BETA || entry.stability() == StabilityLevel.STABLE)
			.sorted((a, b) -> a.name().compareTo(b.name()))
			.toList();
	}

	private static void compare(List<String> differences, String level, String name, String field, Object expected,
			Object actual) {
		if (!Objects.equals(expected, actual)) {
			differences.add(level + " metric " + name + " changed " + field + ": " + expected + " -> " + actual);
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Map<String, Object>> parse(String yaml) {
		Object loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
		Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
		if (loaded instanceof List<?> list) {
			for (Object item : list) {
				Map<String, Object> metric = (Map<String, Object>) item;
				byName.put(String.valueOf(metric.get("name")), metric);
			}
		}
		return byName;
	}

	private static List<String> strings(Object value) {
		List<String> result = new ArrayList<>();
		if (value instanceof List<?> list) {
			list.forEach((item) -> result.add(String.valueOf(item)));
		}
		return result;
	}

	private static List<Double> doubles(Object value) {
		List<Double> result = new ArrayList<>();
		if (value instanceof List<?> list) {
			list.forEach((item) -> result.add(((Number) item).doubleValue()));
		}
		return result;
	}

	private static String quote(String text) {
		return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
	}

}
