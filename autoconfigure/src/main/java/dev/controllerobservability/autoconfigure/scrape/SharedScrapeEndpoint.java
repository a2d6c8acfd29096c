package dev.controllerobservability.autoconfigure.scrape;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.core.io.AbstractResource;
import org.springframework.util.MimeType;

import dev.controllerobservability.internal.metrics.ScrapeFormat;
import dev.controllerobservability.scrape.RenderedScrape;
import dev.controllerobservability.scrape.ScrapeTooLargeException;
import dev.controllerobservability.scrape.SharedScrape;

/**
 * Spring Boot's {@code prometheus} endpoint served from a {@link SharedScrape}: the same
 * id, formats and {@code includedNames} parameter, but requests that arrive while a
 * rendering of the same scrape runs share it, the body streams from the rendering's
 * chunks, and a scrape past {@code controller.observability.scrape.max-size} is answered
 * with status 500 and a text body naming the limit and the property. Being a
 * {@link PrometheusScrapeEndpoint}, it takes the place of Boot's bean, which backs off.
 * Example of a refusal's body:
 *
 * <pre>
 * The scrape was refused: it passed its maximum size of 268435456 bytes (controller.observability.scrape.max-size) at 268500992 bytes. Raise controller.observability.scrape.max-size above the size of a whole scrape, or expose fewer series.
 * </pre>
 */
public class SharedScrapeEndpoint extends PrometheusScrapeEndpoint {

	private static final MimeType TEXT = new MimeType("text", "plain", StandardCharsets.UTF_8);

	private final SharedScrape scrape;

	/**
	 * Creates the endpoint.
	 * @param registry the registry Boot's endpoint would scrape
	 * @param scrape the shared scrape of that registry
	 */
	public SharedScrapeEndpoint(PrometheusRegistry registry, SharedScrape scrape) {
		super(registry, null);
		this.scrape = scrape;
	}

	/**
	 * Serves one scrape. The body is a {@code Resource} over the rendering's chunks, or
	 * the refusal's message: the raw return type lets it replace Boot's byte array
	 * without copying the scrape into one.
	 * @param format the format negotiated from the {@code Accept} header
	 * @param includedNames the metric names to include, or {@code null} for all
	 * @return the response
	 */
	@Override
	@ReadOperation(producesFrom = PrometheusOutputFormat.class)
	@SuppressWarnings({ "rawtypes", "unchecked" })
	public WebEndpointResponse scrape(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		try {
			RenderedScrape rendered = this.scrape.scrape(scrapeFormat(format), includedNames);
			return new WebEndpointResponse<>(new RenderedResource(rendered), format);
		}
		catch (ScrapeTooLargeException ex) {
			return new WebEndpointResponse<>(ex.getMessage() + "\n", WebEndpointResponse.STATUS_INTERNAL_SERVER_ERROR,
					TEXT);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Writing metrics failed", ex);
		}
	}

	static ScrapeFormat scrapeFormat(PrometheusOutputFormat format) {
		return switch (format) {
			case CONTENT_TYPE_004 -> ScrapeFormat.PROMETHEUS_TEXT;
			case CONTENT_TYPE_OPENMETRICS_100 -> ScrapeFormat.OPENMETRICS_TEXT;
			case CONTENT_TYPE_PROTOBUF -> ScrapeFormat.PROMETHEUS_PROTOBUF;
		};
	}

	/** The rendering as a body Spring MVC and WebFlux stream, with its length. */
	static final class RenderedResource extends AbstractResource {

		private final RenderedScrape rendered;

		RenderedResource(RenderedScrape rendered) {
			this.rendered = rendered;
		}

		@Override
		public InputStream getInputStream() {
			return this.rendered.inputStream();
		}

		@Override
		public long contentLength() {
			return this.rendered.size();
		}

		@Override
		public boolean exists() {
			return true;
		}

		@Override
		public String getDescription() {
			return "shared scrape of " + this.rendered.size() + " bytes";
		}

	}

}
