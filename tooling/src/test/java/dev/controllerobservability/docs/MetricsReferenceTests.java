package dev.controllerobservability.docs;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.stability.StabilityLevel;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsReferenceTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String SCRAPE = """
			# HELP karpenter_nodes_launched_total [STABLE] Number of nodes launched.
			# TYPE karpenter_nodes_launched_total counter
			karpenter_nodes_launched_total{provisioner="gpu",zone="a"} 3.0
			# HELP karpenter_node_launches_total [STABLE] (Deprecated since 1.4.0) Number of nodes launched. Replaced by karpenter_nodes_launched_total.
			# TYPE karpenter_node_launches_total counter
			karpenter_node_launches_total{provisioner="gpu",zone="a"} 3.0
			# HELP karpenter_bind_duration_seconds Duration of bind | operations.
			# TYPE karpenter_bind_duration_seconds histogram
			karpenter_bind_duration_seconds_bucket{provisioner="gpu",le="0.1"} 1
			karpenter_bind_duration_seconds_bucket{provisioner="gpu",le="1.0"} 1
			karpenter_bind_duration_seconds_bucket{provisioner="gpu",le="+Inf"} 1
			karpenter_bind_duration_seconds_count{provisioner="gpu"} 1
			karpenter_bind_duration_seconds_sum{provisioner="gpu"} 0.05
			# HELP jvm_threads_live_threads Live threads.
			# TYPE jvm_threads_live_threads gauge
			jvm_threads_live_threads 12.0
			# HELP karpenter_queue_depth [BETA] Pending work.
			# TYPE karpenter_queue_depth gauge
			karpenter_queue_depth{queue="pods"} 2.0
			# HELP workqueue_depth Current depth of workqueue
			# TYPE workqueue_depth gauge
			workqueue_depth{controller="node",name="node"} 0.0
			""";

	private final MetricsReference reference = MetricsReference.of(
			Exposition.parse(SCRAPE), List.of(new ExposedFamily("karpenter_nodes_terminated_total", "counter",
					"[BETA] Nodes terminated.", List.of(Map.of("provisioner", "")), List.of())),
			(name) -> name.startsWith("jvm_"));

	@Test
	void readsStabilityDeprecationAndReplacementFromTheHelpText() {
		ReferenceEntry alias = entry("karpenter_node_launches_total");
		assertThat(alias.stability()).isEqualTo(StabilityLevel.STABLE);
		assertThat(alias.deprecatedVersion()).isEqualTo("1.4.0");
		assertThat(alias.replacedBy()).isEqualTo("karpenter_nodes_launched_total");
		assertThat(alias.help()).isEqualTo("Number of nodes launched.");
		assertThat(entry("karpenter_bind_duration_seconds").stability()).isEqualTo(StabilityLevel.ALPHA);
		assertThat(entry("karpenter_bind_duration_seconds").buckets()).containsExactly(0.1, 1.0);
		assertThat(entry("jvm_threads_live_threads").stability()).isNull();
		assertThat(entry("jvm_threads_live_threads").group()).isEqualTo(ReferenceEntry.Group.FRAMEWORK);
	}

	@Test
	void includesDeclaredMetricsWithoutSeriesYet() {
		assertThat(entry("karpenter_nodes_terminated_total").labels()).containsExactly("provisioner");
		assertThat(this.reference.entries()).extracting(ReferenceEntry::name)
			.containsExactly("jvm_threads_live_threads", "karpenter_bind_duration_seconds",
					"karpenter_node_launches_total", "karpenter_nodes_launched_total",
					"karpenter_nodes_terminated_total", "karpenter_queue_depth", "workqueue_depth");
	}

	@Test
	void rendersOneTablePerStabilityLevelThenFrameworkMetrics() {
		String markdown = this.reference.toMarkdown("Test metrics");
		assertThat(markdown).startsWith("# Test metrics\n\n");
		assertThat(markdown.indexOf("## Stable metrics")).isLessThan(markdown.indexOf("## Beta metrics"));
		assertThat(markdown.indexOf("## Beta metrics")).isLessThan(markdown.indexOf("## Alpha metrics"));
		assertThat(markdown.indexOf("## Alpha metrics")).isLessThan(markdown.indexOf("## Internal metrics"));
		assertThat(markdown.indexOf("## Internal metrics"))
			.isLessThan(markdown.indexOf("## Kubernetes-compatible metrics"));
		assertThat(markdown.indexOf("## Kubernetes-compatible metrics"))
			.isLessThan(markdown.indexOf("## Framework metrics"));
		assertThat(markdown).contains("| Name | Type | Help | Labels | Stability | Deprecated version | Replaced by |",
				"| `karpenter_node_launches_total` | counter | Number of nodes launched. | `provisioner`, `zone` | STABLE | 1.4.0 | `karpenter_nodes_launched_total` |",
				"| `karpenter_bind_duration_seconds` | histogram | Duration of bind \\| operations. | `provisioner` | ALPHA |  |  |",
				"| `jvm_threads_live_threads` | gauge | Live threads. |  |  |  |  |", "## Internal metrics\n\nNone.\n");
	}

	@Test
	void rendersKubernetesCompatibleMetricsInATableOfTheirOwn() {
		String markdown = this.reference.toMarkdown("Test metrics");
		String row = "| `workqueue_depth` | gauge | Current depth of workqueue | `controller`, `name` | ALPHA |  |  |";
		assertThat(section(markdown, MetricsReference.KUBERNETES_HEADING)).contains(row)
			.doesNotContain("karpenter_")
			.doesNotContain("jvm_");
		assertThat(section(markdown, "Alpha metrics")).contains("`karpenter_bind_duration_seconds`")
			.doesNotContain("workqueue_depth");
		assertThat(section(markdown, MetricsReference.FRAMEWORK_HEADING)).doesNotContain("workqueue_depth");
		assertThat(markdown.split("`workqueue_depth`", -1)).hasSize(2);
		assertThat(this.reference.entries(ReferenceEntry.Group.KUBERNETES)).extracting(ReferenceEntry::name)
			.containsExactly("workqueue_depth");
		assertThat(jsonEntry("workqueue_depth")).isEqualTo(JSON.readTree("""
				{"name": "workqueue_depth", "type": "gauge", "help": "Current depth of workqueue",
				 "labels": ["controller", "name"], "stability": "ALPHA", "deprecatedVersion": null,
				 "replacedBy": null, "buckets": [], "group": "KUBERNETES"}
				"""));
	}

	@Test
	void rendersJsonForMachines() {
		assertThat(jsonEntry("karpenter_node_launches_total")).isEqualTo(JSON.readTree("""
				{"name": "karpenter_node_launches_total", "type": "counter", "help": "Number of nodes launched.",
				 "labels": ["provisioner", "zone"], "stability": "STABLE", "deprecatedVersion": "1.4.0",
				 "replacedBy": "karpenter_nodes_launched_total", "buckets": [], "group": "CONTROLLER"}
				"""));
		assertThat(jsonEntry("karpenter_bind_duration_seconds").get("buckets")).isEqualTo(JSON.readTree("[0.1, 1.0]"));
		assertThat(jsonEntry("jvm_threads_live_threads").get("stability").isNull()).isTrue();
		assertThat(JSON.readTree(this.reference.toJson())).extracting((entry) -> entry.get("name").asString())
			.containsExactly("jvm_threads_live_threads", "karpenter_bind_duration_seconds",
					"karpenter_node_launches_total", "karpenter_nodes_launched_total",
					"karpenter_nodes_terminated_total", "karpenter_queue_depth", "workqueue_depth");
	}

	@Test
	void rendersJsonOneMemberPerLineWithTheComponentsInOrder() {
		String json = this.reference.toJson();
		assertThat(json).startsWith("""
				[
				  {
				    "name": "jvm_threads_live_threads",
				    "type": "gauge",
				    "help": "Live threads.",
				    "labels": [],
				    "stability": null,
				    "deprecatedVersion": null,
				    "replacedBy": null,
				    "buckets": [],
				    "group": "FRAMEWORK"
				  },
				  {
				""").endsWith("  }\n]\n");
		assertThat(json).contains("""
				    "buckets": [
				      0.1,
				      1.0
				    ],
				""");
	}

	@Test
	void escapesQuotesBackslashesAndControlCharactersInJson() {
		MetricsReference reference = MetricsReference.of(Exposition.parse(""),
				List.of(new ExposedFamily("karpenter_quoted_total", "counter", "Says \"hi\" \\ then\ttabs.",
						List.of(Map.of()), List.of())),
				(name) -> false);
		assertThat(reference.toJson()).contains("\"help\": \"Says \\\"hi\\\" \\\\ then\\ttabs.\"");
		assertThat(JSON.readTree(reference.toJson()).get(0).get("help").asString())
			.isEqualTo("Says \"hi\" \\ then\ttabs.");
	}

	private JsonNode jsonEntry(String name) {
		for (JsonNode entry : JSON.readTree(this.reference.toJson())) {
			if (entry.get("name").asString().equals(name)) {
				return entry;
			}
		}
		throw new AssertionError("No JSON entry " + name);
	}

	private static String section(String markdown, String heading) {
		int start = markdown.indexOf("\n## " + heading + "\n");
		assertThat(start).as("heading " + heading).isNotNegative();
		int end = markdown.indexOf("\n## ", start + 1);
		return markdown.substring(start, (end >= 0) ? end : markdown.length());
	}

	private ReferenceEntry entry(String name) {
		return this.reference.entries().stream().filter((entry) -> entry.name().equals(name)).findFirst().orElseThrow();
	}

}
