package dev.controllerobservability.internal.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.jspecify.annotations.Nullable;

/**
 * Writes one scrape of a {@link PrometheusRegistry} in a {@link ScrapeFormat}: what a
 * scrape endpoint, with or without Spring, serves.
 * <p>
 * The starter's own histograms ({@link NativeHistogram#register registered} with the
 * registry) are rendered straight to bytes, with no snapshot objects, first; every other
 * family is then written by the standard writer of prometheus-metrics-exposition-formats,
 * which ends an OpenMetrics scrape with its one {@code # EOF}. Each family is whole and
 * written as the standard writer writes it; only the order of families differs.
 * <pre>{@code
 * ScrapeWriter.of(prometheusMeterRegistry.getPrometheusRegistry())
 *     .write(ScrapeFormat.PROMETHEUS_TEXT, (name) -> true, response.getOutputStream());
 * }</pre>
 */
public final class ScrapeWriter {

	private final PrometheusRegistry registry;

	private final ExpositionFormats formats;

	/**
	 * Whether the standard writers add {@code _created} series, which the rendering
	 * leaves out: then every family goes through them.
	 */
	private final boolean rendersHistograms;

	private ScrapeWriter(PrometheusRegistry registry, ExporterProperties exporter) {
		this.registry = registry;
		this.formats = ExpositionFormats.init(exporter);
		this.rendersHistograms = !exporter.getIncludeCreatedTimestamps();
	}

	/**
	 * The writer of scrapes of a registry, with the exporter properties
	 * prometheus-metrics loads from its own configuration.
	 * @param registry the registry
	 * @return its writer
	 */
	public static ScrapeWriter of(PrometheusRegistry registry) {
		return of(registry, PrometheusProperties.get().getExporterProperties());
	}

	/**
	 * The writer of scrapes of a registry, with given exporter properties, as Spring Boot
	 * builds them from {@code management.prometheus.metrics.export.properties}.
	 * @param registry the registry
	 * @param exporter the exporter properties (created timestamps, exemplars, timestamps
	 * in milliseconds)
	 * @return its writer
	 */
	public static ScrapeWriter of(PrometheusRegistry registry, ExporterProperties exporter) {
		return new ScrapeWriter(registry, exporter);
	}

	/**
	 * Writes one scrape of the families whose name the filter includes. A family is
	 * included as {@link PrometheusRegistry#scrape(Predicate)} includes it: by the name
	 * of its collector (such as {@code karpenter_bind_duration_seconds} for a histogram,
	 * not its {@code _bucket} series).
	 * @param format the format
	 * @param includedNames which metric names to write, or {@code null} for all
	 * @param out where to write it
	 * @throws IOException when the stream fails
	 */
	public void write(ScrapeFormat format, @Nullable Predicate<String> includedNames, OutputStream out)
			throws IOException {
		List<NativeHistogram> histograms = this.rendersHistograms ? RenderedHistograms.of(this.registry) : List.of();
		if (histograms.isEmpty()) {
			writer(format).write(out,
					(includedNames != null) ? this.registry.scrape(includedNames) : this.registry.scrape());
			return;
		}
		Predicate<String> included = (includedNames != null) ? includedNames : (name) -> true;
		Set<String> rendered = new HashSet<>();
		for (NativeHistogram histogram : histograms) {
			if (HistogramRenderer.renders(histogram)) {
				rendered.add(histogram.getPrometheusName());
			}
		}
		// Collected first: the registry runs the catalog's collectors, which may record
		// into the rendered histograms, before anything is read.
		MetricSnapshots others = this.registry.scrape((name) -> !rendered.contains(name) && included.test(name));
		ScrapeBytes bytes = ScrapeBytes.to(out);
		HistogramRenderer renderer = new HistogramRenderer(format, bytes);
		for (NativeHistogram histogram : histograms) {
			String name = histogram.getPrometheusName();
			if (rendered.contains(name) && included.test(name)) {
				renderer.render(histogram);
			}
		}
		bytes.flush();
		writer(format).write(out, others);
	}

	private ExpositionFormatWriter writer(ScrapeFormat format) {
		return switch (format) {
			case PROMETHEUS_TEXT -> this.formats.getPrometheusTextFormatWriter();
			case OPENMETRICS_TEXT -> this.formats.getOpenMetricsTextFormatWriter();
			case PROMETHEUS_PROTOBUF -> this.formats.getPrometheusProtobufWriter();
		};
	}

}
