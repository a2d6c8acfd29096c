package dev.controllerobservability.exposition;

import java.util.List;
import java.util.Optional;

import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The metric families and samples of one scrape, in the order they were exposed. Read
 * from the registry's snapshots when the registry is at hand, from the text format when
 * only the text is. Example:
 *
 * <pre>{@code
 * Exposition exposition = Exposition.of(registry.getPrometheusRegistry().scrape());
 * assertThat(exposition.family("karpenter_bind_duration_seconds")).map(ExposedFamily::type).hasValue("histogram");
 * }</pre>
 *
 * @param families the families
 * @param duplicateNames names declared by more than one {@code # TYPE} line
 * @param samples every sample line, {@code le} and {@code quantile} labels included
 */
public record Exposition(List<ExposedFamily> families, List<String> duplicateNames, List<ExposedSample> samples) {

	public Exposition {
		families = List.copyOf(families);
		duplicateNames = List.copyOf(duplicateNames);
		samples = List.copyOf(samples);
	}

	/**
	 * Creates an exposition of families alone, such as the families a catalog declares.
	 * @param families the families
	 * @param duplicateNames names declared more than once
	 */
	public Exposition(List<ExposedFamily> families, List<String> duplicateNames) {
		this(families, duplicateNames, List.of());
	}

	/**
	 * Reads a scrape in the Prometheus text format exactly as Prometheus 2.42 reads it:
	 * what it accepts is read to the same names, labels, values and timestamps, and what
	 * it refuses is refused.
	 * @param text the scrape
	 * @return its families
	 * @throws IllegalArgumentException for input Prometheus refuses, naming the line, the
	 * column and Prometheus's reason
	 */
	public static Exposition parse(String text) {
		return new ExpositionParser(text).parse();
	}

	/**
	 * Reads a registry's snapshots into what its Prometheus text format scrape shows, as
	 * {@code PrometheusMeterRegistry.scrape()} writes it with the default exporter
	 * properties: {@code Exposition.of(snapshots)} equals
	 * {@code Exposition.parse(scrape)} of the same snapshots, without writing the text.
	 * @param snapshots the snapshots, such as {@code PrometheusRegistry.scrape()}
	 * @return their families
	 */
	public static Exposition of(MetricSnapshots snapshots) {
		return of(snapshots, ExporterProperties.builder().build());
	}

	/**
	 * Reads a registry's snapshots into what its Prometheus text format scrape shows, as
	 * the text format writer configured with the given exporter properties writes it:
	 * {@code _created} gauges only when they include created timestamps.
	 * @param snapshots the snapshots, such as {@code PrometheusRegistry.scrape()}
	 * @param exporter the exporter properties the registry's writer was built with
	 * @return their families
	 * @throws IllegalArgumentException for a sample with a scrape timestamp written in
	 * seconds, which Prometheus refuses as it refuses the text
	 */
	public static Exposition of(MetricSnapshots snapshots, ExporterProperties exporter) {
		return new SnapshotReader(exporter).read(snapshots);
	}

	/**
	 * A family by name.
	 * @param name the family name
	 * @return the family, if exposed
	 */
	public Optional<ExposedFamily> family(String name) {
		return this.families.stream().filter((family) -> family.name().equals(name)).findFirst();
	}

}
