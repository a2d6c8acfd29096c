package dev.controllerobservability.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;

import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.docs.StableMetricsGoldenFile;
import dev.controllerobservability.test.Promtool;
import dev.controllerobservability.test.StableMetricsContract;
import dev.controllerobservability.live.ControllerArtefacts;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The demo's generated reference, its stable-metrics contract and its lint, checked
 * against the running demo. {@code -Dreference.update=true} rewrites the committed files
 * instead of comparing them.
 */
@SpringBootTest(
		properties = { "demo.round-interval=50ms", "demo.min-launch-latency=1ms", "demo.max-launch-latency=5ms" })
@AutoConfigureMetrics
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReferenceDocsTests {

	static final String REFRESH = "./mvnw -pl demo-controller -am verify -Dreference.update=true";

	private static final Path REFERENCE = Path.of("..", "docs", "reference");

	private static final String TITLE = "Demo controller metrics";

	private static final Pattern ROW = Pattern.compile("^\\| `([a-zA-Z_:][a-zA-Z0-9_:]*)` \\|", Pattern.MULTILINE);

	@Autowired
	private LiveMetrics liveMetrics;

	@Autowired
	private MetricsLinter linter;

	@Autowired
	private ControllerArtefacts artefacts;

	private String scrape;

	private List<ExposedFamily> declared;

	private MetricsReference reference;

	@BeforeAll
	void waitForEveryOperationAndGenerate() throws Exception {
		Set<String> operations = Set.of("karpenter_provisioner_apply_packing_duration_seconds",
				"karpenter_cloudprovider_launch_duration_seconds",
				"karpenter_allocation_controller_bind_duration_seconds");
		this.scrape = await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(this.liveMetrics::scrape, (text) -> families(Exposition.parse(text)).containsAll(operations));
		this.declared = this.liveMetrics.declaredFamilies();
		this.reference = MetricsReference.of(Exposition.parse(this.scrape), this.declared, this.linter::isFramework);
		if (Boolean.getBoolean("reference.update")) {
			Files.createDirectories(REFERENCE);
			Files.writeString(REFERENCE.resolve("metrics.md"), this.reference.toMarkdown(TITLE));
			Files.writeString(REFERENCE.resolve("stable-metrics.yaml"),
					StableMetricsGoldenFile.render(this.reference.entries(),
							"Stable and beta metrics of the demo controller; refresh with: " + REFRESH));
			Files.writeString(REFERENCE.resolve("rules.yaml"), this.artefacts.rulesFile());
			Files.writeString(REFERENCE.resolve("prometheusrule.yaml"), this.artefacts.prometheusRule());
			Files.writeString(REFERENCE.resolve("servicemonitor.yaml"), this.artefacts.serviceMonitor());
			Files.writeString(REFERENCE.resolve("podmonitor.yaml"), this.artefacts.podMonitor());
			Files.writeString(REFERENCE.resolve("dashboard.json"), this.artefacts.dashboard().toJson());
		}
	}

	@Test
	void documentsEveryExposedAndDeclaredFamily() {
		Set<String> expected = families(Exposition.parse(this.scrape));
		this.declared.forEach((family) -> expected.add(family.name()));
		Set<String> documented = new TreeSet<>();
		Matcher row = ROW.matcher(this.reference.toMarkdown(TITLE));
		while (row.find()) {
			documented.add(row.group(1));
		}
		assertThat(documented).isEqualTo(expected);
	}

	@Test
	void keepsTheCommittedReferenceCurrent() throws Exception {
		String committed = Files.readString(REFERENCE.resolve("metrics.md"));
		// Framework metrics depend on the JVM and on timing (a GC pause shows up once one
		// happened).
		assertThat(controllerPart(committed)).as("docs/reference/metrics.md is stale; refresh it with: " + REFRESH)
			.isEqualTo(controllerPart(this.reference.toMarkdown(TITLE)));
	}

	@Test
	void keepsTheCommittedRulesAndDashboardCurrent() throws Exception {
		assertThat(Files.readString(REFERENCE.resolve("rules.yaml")))
			.as("rules.yaml is stale; refresh with: " + REFRESH)
			.isEqualTo(this.artefacts.rulesFile());
		assertThat(Files.readString(REFERENCE.resolve("prometheusrule.yaml")))
			.as("prometheusrule.yaml is stale; refresh with: " + REFRESH)
			.isEqualTo(this.artefacts.prometheusRule());
		assertThat(Files.readString(REFERENCE.resolve("servicemonitor.yaml")))
			.as("servicemonitor.yaml is stale; refresh with: " + REFRESH)
			.isEqualTo(this.artefacts.serviceMonitor());
		assertThat(Files.readString(REFERENCE.resolve("podmonitor.yaml")))
			.as("podmonitor.yaml is stale; refresh with: " + REFRESH)
			.isEqualTo(this.artefacts.podMonitor());
		assertThat(Files.readString(REFERENCE.resolve("dashboard.json")))
			.as("dashboard.json is stale; refresh with: " + REFRESH)
			.isEqualTo(this.artefacts.dashboard().toJson());
	}

	@Test
	void keepsTheStableMetricsContract() {
		StableMetricsContract.assertUnchanged(REFERENCE.resolve("stable-metrics.yaml"),
				(committed) -> StableMetricsGoldenFile.differences(committed, this.liveMetrics.reference().entries()),
				REFRESH);
	}

	@Test
	void hasNoLintFindingsOnControllerMetrics() {
		this.liveMetrics.lint().assertNoControllerFindings();
	}

	@Test
	void passesPromtoolOnItsControllerMetrics() throws Exception {
		List<String> problems = Promtool.checkMetrics(this.scrape);
		assertThat(problems).isNotEmpty().noneMatch((problem) -> problem.startsWith("karpenter_"));
		assertThat(this.linter.promtoolFindings(Exposition.parse(this.scrape))).extracting(Object::toString)
			.containsExactlyElementsOf(problems);
	}

	private static Set<String> families(Exposition exposition) {
		Set<String> names = new TreeSet<>();
		exposition.families().forEach((family) -> names.add(family.name()));
		return names;
	}

	private static String controllerPart(String markdown) {
		int framework = markdown.indexOf("## " + MetricsReference.FRAMEWORK_HEADING);
		return (framework >= 0) ? markdown.substring(0, framework) : markdown;
	}

}
