package dev.controllerobservability.demo;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;

import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.internal.rules.PromQl;
import dev.controllerobservability.test.Promtool;
import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The demo's generated rules and dashboard, checked by the real promtool: both rule
 * renderings pass {@code check rules}, each alert fires and resolves in
 * {@code test rules}, and every dashboard query parses and reads only metrics the demo
 * exposes.
 */
@SpringBootTest(
		properties = { "demo.round-interval=50ms", "demo.min-launch-latency=1ms", "demo.max-launch-latency=5ms" })
@AutoConfigureMetrics
class RulesPromtoolTests {

	@Autowired
	private ControllerArtefacts artefacts;

	@Autowired
	private LiveMetrics liveMetrics;

	@TempDir
	private Path directory;

	@Test
	void rulesFilePassesPromtool() throws Exception {
		Path rules = Files.writeString(this.directory.resolve("rules.yaml"), this.artefacts.rulesFile());
		assertThat(Promtool.checkRules(rules)).contains("SUCCESS: 13 rules found");
	}

	@Test
	@SuppressWarnings("unchecked")
	void prometheusRulePassesPromtool() throws Exception {
		Map<String, Object> manifest = new Yaml().load(this.artefacts.prometheusRule());
		assertThat(manifest).containsEntry("apiVersion", "monitoring.coreos.com/v1")
			.containsEntry("kind", "PrometheusRule");
		assertThat((Map<String, Object>) manifest.get("metadata")).containsEntry("name", "demo-controller-rules")
			.containsEntry("labels", Map.of("release", "prometheus"));
		Path rules = Files.writeString(this.directory.resolve("spec.yaml"), new Yaml().dump(manifest.get("spec")));
		assertThat(Promtool.checkRules(rules)).contains("SUCCESS: 13 rules found");
	}

	@Test
	void everyAlertFiresAndResolvesInPromtoolTests() throws Exception {
		Files.writeString(this.directory.resolve("rules.yaml"), this.artefacts.rulesFile());
		Path test = this.directory.resolve("demo-rules-test.yaml");
		try (InputStream input = getClass().getResourceAsStream("/rules/demo-rules-test.yaml")) {
			Files.copy(input, test);
		}
		assertThat(Promtool.testRules(test)).contains("SUCCESS");
		String tests = Files.readString(test);
		for (var alert : this.artefacts.rules().alerts()) {
			assertThat(tests).as("promtool test of %s", alert.name()).contains("alertname: " + alert.name());
		}
	}

	@Test
	void dashboardQueriesParseAndReadOnlyExposedMetrics() throws Exception {
		List<String> expressions = this.artefacts.dashboard().expressions();
		assertThat(expressions).hasSizeGreaterThan(15);
		List<Map<String, Object>> rules = new ArrayList<>();
		for (int i = 0; i < expressions.size(); i++) {
			Map<String, Object> rule = new LinkedHashMap<>();
			rule.put("record", "dashboard:query_" + i + ":expr");
			rule.put("expr", expressions.get(i));
			rules.add(rule);
		}
		Path file = Files.writeString(this.directory.resolve("dashboard-queries.yaml"),
				new Yaml().dump(Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules)))));
		assertThat(Promtool.checkRules(file)).contains("SUCCESS: " + expressions.size() + " rules found");
		Set<String> exposed = waitForExposedNames();
		Set<String> read = new TreeSet<>();
		expressions.forEach((expr) -> read.addAll(PromQl.metricNames(expr)));
		assertThat(exposed).containsAll(read);
	}

	private Set<String> waitForExposedNames() {
		return await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(this::exposedNames,
					(names) -> names.contains("karpenter_cloudprovider_launch_duration_seconds_bucket"));
	}

	private Set<String> exposedNames() {
		Set<String> names = new TreeSet<>();
		// Declared metrics count too: a counter such as nodes terminated has no series
		// until
		// its first event, which timing decides.
		List<ExposedFamily> families = new ArrayList<>(this.liveMetrics.exposition().families());
		families.addAll(this.liveMetrics.declaredFamilies());
		for (ExposedFamily family : families) {
			names.add(family.name());
			for (String suffix : new String[] { "_bucket", "_count", "_sum" }) {
				if (family.type().equals("histogram") || family.type().equals("summary")) {
					names.add(family.name() + suffix);
				}
			}
		}
		return names;
	}

}
