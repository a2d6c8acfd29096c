package dev.controllerobservability.internal.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Predicate;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Writes one scrape of a {@link PrometheusRegistry} in a {@link ScrapeFormat}: what a
 * scrape endpoint, with or without Spring, serves.
 */
public final class ScrapeWriter {

	private final PrometheusRegistry registry;

	private final ExpositionFormats formats = ExpositionFormats.init();

	private ScrapeWriter(PrometheusRegistry registry) {
		this.registry = registry;
	}

	/**
	 * The writer of scrapes of a registry.
	 * @param registry the registry
	 * @return its writer
	 */
	public static ScrapeWriter of(PrometheusRegistry registry) {
		return new ScrapeWriter(registry);
	}

	/**
	 * Writes one scrape of the families whose name the filter includes.
	 * @param format the format
	 * @param includedNames which metric names to write
	 * @param out where to write it
	 * @throws IOException when the stream fails
	 */
	public void write(ScrapeFormat format, Predicate<String> includedNames, OutputStream out) throws IOException {
		writer(format).write(out, this.registry.scrape(includedNames));
	}

	private ExpositionFormatWriter writer(ScrapeFormat format) {
		return switch (format) {
			case PROMETHEUS_TEXT -> this.formats.getPrometheusTextFormatWriter();
			case OPENMETRICS_TEXT -> this.formats.getOpenMetricsTextFormatWriter();
			case PROMETHEUS_PROTOBUF -> this.formats.getPrometheusProtobufWriter();
		};
	}

}
