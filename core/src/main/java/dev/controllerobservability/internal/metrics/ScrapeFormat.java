package dev.controllerobservability.internal.metrics;

import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/**
 * The three formats Prometheus asks a scrape in, with the content type each is served
 * with.
 */
public enum ScrapeFormat {

	/** The Prometheus text format 0.0.4. */
	PROMETHEUS_TEXT(PrometheusTextFormatWriter.CONTENT_TYPE),

	/** OpenMetrics 1.0 text. */
	OPENMETRICS_TEXT(OpenMetricsTextFormatWriter.CONTENT_TYPE),

	/** The Prometheus protobuf format, which carries native histograms. */
	PROMETHEUS_PROTOBUF(PrometheusProtobufWriter.CONTENT_TYPE);

	private final String contentType;

	ScrapeFormat(String contentType) {
		this.contentType = contentType;
	}

	/**
	 * The content type a scrape in this format is served with.
	 * @return the content type
	 */
	public String contentType() {
		return this.contentType;
	}

}
