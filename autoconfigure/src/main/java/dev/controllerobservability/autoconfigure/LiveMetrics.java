package dev.controllerobservability.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Tag;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.lint.MetricsLinter;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.stability.StableMetricsGoldenFile;

/**
 * What the running application exposes, for documentation, linting and the stability
 * contract: its Prometheus scrape plus the declared metrics that have no series yet. In a
 * test of your own controller:
 * <pre>{@code
 * @Autowired LiveMetrics liveMetrics;
 *
 * @Test
 * void metricsAreClean() {
 *     liveMetrics.lint().assertNoControllerFindings();
 *     liveMetrics.assertStableMetricsUnchanged(Path.of("docs/reference/stable-metrics.yaml"), "./mvnw verify -Dreference.update=true");
 * }
 * }</pre>
 */
public class LiveMetrics {

	private final PrometheusMeterRegistry registry;

	private final ControllerMetrics metrics;

	private final ControllerObservabilitySettings settings;

	private final MetricsLinter linter;

	private final ControllerOperations operations;

	private final List<String> knownOperations;

	public LiveMetrics(PrometheusMeterRegistry registry, ControllerMetrics metrics,
			ControllerObservabilitySettings settings, MetricsLinter linter, ControllerOperations operations,
			List<String> knownOperations) {
		this.registry = registry;
		this.metrics = metrics;
		this.settings = settings;
		this.linter = linter;
		this.operations = operations;
		this.knownOperations = List.copyOf(knownOperations);
	}

	/**
	 * The current scrape, as {@code /actuator/prometheus} serves it.
	 * @return the Prometheus text format
	 */
	public String scrape() {
		return this.registry.scrape();
	}

	/**
	 * The current scrape, read back into families.
	 * @return the exposition
	 */
	public Exposition exposition() {
		return Exposition.parse(scrape());
	}

	/**
	 * Families declared before they have series: catalog metrics, and the operations
	 * listed under {@code operations.definitions} or given built-in rules.
	 * @return the declared families
	 */
	public List<ExposedFamily> declaredFamilies() {
		List<String> commonTags = this.settings.commonTags().stream().map(Tag::getKey).toList();
		List<ExposedFamily> families = new ArrayList<>(this.metrics.declaredFamilies(commonTags));
		for (String operation : this.knownOperations) {
			families.addAll(this.operations.families(operation, commonTags, this.settings.durationBuckets()));
		}
		return families;
	}

	/**
	 * The reference of every exposed family and every declared one.
	 * @return the reference
	 */
	public MetricsReference reference() {
		return MetricsReference.of(exposition(), declaredFamilies(), this.linter::isFramework);
	}

	/**
	 * Lints the current scrape.
	 * @return the findings
	 */
	public LintReport lint() {
		return lint(exposition());
	}

	/**
	 * Lints a scrape already taken.
	 * @param exposition the scrape
	 * @return the findings
	 */
	public LintReport lint(Exposition exposition) {
		return this.linter.lint(exposition);
	}

	/**
	 * Fails when the application breaks the committed stable-metrics contract.
	 * @param goldenFile the committed {@code stable-metrics.yaml}
	 * @param refreshCommand the command that rewrites it, printed with the differences
	 * @throws AssertionError listing what changed
	 */
	public void assertStableMetricsUnchanged(Path goldenFile, String refreshCommand) {
		try {
			StableMetricsGoldenFile.assertUnchanged(Files.readString(goldenFile), reference().entries(),
					refreshCommand);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the golden file " + goldenFile.toAbsolutePath()
					+ "; create it with: " + refreshCommand, ex);
		}
	}

}
