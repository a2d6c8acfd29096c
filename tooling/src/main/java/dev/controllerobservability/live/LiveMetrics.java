package dev.controllerobservability.live;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;

import dev.controllerobservability.docs.MetricsReference;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.exposition.Exposition;
import dev.controllerobservability.lint.LintReport;
import dev.controllerobservability.lint.MetricsLinter;

/**
 * What the running application exposes, for documentation, linting and the stability
 * contract: its Prometheus scrape plus the declared metrics that have no series yet. In a
 * test of your own controller (with {@code StableMetricsContract} of
 * {@code controller-observability-spring-boot-test}):
 *
 * <pre class="code">
 * &#64;Autowired LiveMetrics liveMetrics;
 *
 * &#64;Test
 * void metricsAreClean() {
 *     liveMetrics.lint().assertNoControllerFindings();
 *     StableMetricsContract.assertUnchanged(Path.of("docs/reference/stable-metrics.yaml"),
 *             (committed) -&gt; StableMetricsGoldenFile.differences(committed, liveMetrics.reference().entries()),
 *             "./mvnw verify -Dreference.update=true");
 * }
 * </pre>
 * <p>
 * What is exposed is read from the registry's snapshots, as the text format scrape would
 * show them, without writing the text and reading it back. {@link #reference()} and
 * {@link #lint()} cost a collection of the registry and the work itself; both depend only
 * on which metric families and labels exist, never on values. Each therefore keeps its
 * last result and returns it again until a meter is added to or removed from the
 * registry. {@link #exposition()} and {@link #lint(Exposition)} always work on a fresh
 * scrape.
 */
public class LiveMetrics {

	private final PrometheusMeterRegistry registry;

	private final ExporterProperties exporter;

	private final DeclaredMetrics declared;

	private final MetricsLinter linter;

	private final List<String> extraLabels;

	private final AtomicLong meterChanges = new AtomicLong();

	private final LastResult<MetricsReference> reference = new LastResult<>();

	private final LastResult<LintReport> lint = new LastResult<>();

	/**
	 * Creates the live view and starts counting the registry's meter changes.
	 * @param registry the application's Prometheus registry
	 * @param prometheusConfig the registry's configuration, whose exporter properties
	 * decide what its scrape shows
	 * @param declared what the controller declares before it has series
	 * @param linter the linter
	 * @param registryTagKeys keys of the tags the registry gives every meter (Spring
	 * Boot's {@code management.metrics.tags}), empty for none
	 */
	public LiveMetrics(PrometheusMeterRegistry registry, PrometheusConfig prometheusConfig, DeclaredMetrics declared,
			MetricsLinter linter, Collection<String> registryTagKeys) {
		this.registry = registry;
		this.exporter = exporterProperties(prometheusConfig);
		this.declared = declared;
		this.linter = linter;
		Set<String> extraLabels = new LinkedHashSet<>(registryTagKeys);
		extraLabels.addAll(declared.commonTagKeys());
		this.extraLabels = List.copyOf(extraLabels);
		registry.config()
			.onMeterAdded((meter) -> this.meterChanges.incrementAndGet())
			.onMeterRemoved((meter) -> this.meterChanges.incrementAndGet());
	}

	/**
	 * The current scrape, as {@code /actuator/prometheus} serves it.
	 * @return the Prometheus text format
	 */
	public String scrape() {
		return this.registry.scrape();
	}

	/**
	 * The current scrape's families and samples, read from the registry's snapshots as
	 * {@link #scrape()} would show them.
	 * @return the exposition
	 */
	public Exposition exposition() {
		return Exposition.of(this.registry.getPrometheusRegistry().scrape(), this.exporter);
	}

	/**
	 * The exporter properties the registry's text format writer is built from, loaded as
	 * {@code PrometheusMeterRegistry} loads them: they decide whether its scrape shows
	 * {@code _created} gauges.
	 */
	private static ExporterProperties exporterProperties(PrometheusConfig config) {
		Properties properties = config.prometheusProperties();
		return ((properties != null) ? PrometheusPropertiesLoader.load(properties) : PrometheusPropertiesLoader.load())
			.getExporterProperties();
	}

	/**
	 * Families declared before they have series: catalog metrics, and the operations
	 * declared or given built-in rules, with the labels their series will carry
	 * (including the registry's own tags, such as Spring Boot's
	 * {@code management.metrics.tags}). A disabled family is left out, with the
	 * {@code _max} of a disabled histogram.
	 * @return the declared families
	 */
	public List<ExposedFamily> declaredFamilies() {
		return this.declared.families(this.extraLabels);
	}

	/**
	 * The reference of every exposed family and every declared one. The previous result
	 * is returned again while no meter has been added or removed.
	 * @return the reference
	 */
	public MetricsReference reference() {
		return this.reference
			.get((exposition) -> MetricsReference.of(exposition, declaredFamilies(), this.linter::isFramework));
	}

	/**
	 * Lints the current scrape and the declared families it does not expose yet. The
	 * previous result is returned again while no meter has been added or removed.
	 * @return the findings
	 */
	public LintReport lint() {
		return this.lint.get(this::lint);
	}

	/**
	 * Lints a scrape already taken and the declared families it does not expose yet.
	 * @param exposition the scrape
	 * @return the findings
	 */
	public LintReport lint(Exposition exposition) {
		return this.linter.lint(exposition, declaredFamilies(), this.declared.metrics().objectLabels());
	}

	/**
	 * The last result computed from a scrape, and the count of meter changes it saw.
	 * Callers that arrive while it is computed wait for it rather than scrape again.
	 */
	private final class LastResult<T> {

		private long meterChanges = -1;

		private T value;

		synchronized T get(Function<Exposition, T> compute) {
			// Read before scraping: a meter added during the scrape makes the next call
			// scrape again.
			long current = LiveMetrics.this.meterChanges.get();
			if (this.value == null || this.meterChanges != current) {
				this.value = compute.apply(exposition());
				this.meterChanges = current;
			}
			return this.value;
		}

	}

}
