package dev.controllerobservability.scrape;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.ScrapeFormat;

/**
 * Serves a {@link SharedScrape} with the JDK's HTTP server: the format Prometheus asks
 * for in its {@code Accept} header (Prometheus text when it accepts anything), and only
 * the families named by {@code name[]} or {@code includedNames} query parameters when
 * there are some. A refused scrape is answered with status 500 and the refusal's message
 * as a text body, so Prometheus records {@code up=0} for it. Give the server an executor
 * with more than one thread, or requests never run at once to share a rendering. Example:
 *
 * <pre>{@code
 * HttpServer server = HttpServer.create(new InetSocketAddress(8080), 0);
 * server.setExecutor(Executors.newFixedThreadPool(8));
 * server.createContext("/metrics", ScrapeHandler.of(scrape));
 * }</pre>
 */
public final class ScrapeHandler implements HttpHandler {

	/** Status of a refused scrape. */
	static final int REFUSED = 500;

	private static final String INCLUDED_NAMES = "includedNames";

	private static final String NAME = "name[]";

	private final SharedScrape scrape;

	private ScrapeHandler(SharedScrape scrape) {
		this.scrape = scrape;
	}

	/**
	 * The handler of a shared scrape.
	 * @param scrape the scrape to serve
	 * @return the handler
	 */
	public static ScrapeHandler of(SharedScrape scrape) {
		return new ScrapeHandler(Objects.requireNonNull(scrape,
				"ScrapeHandler.of(null): pass the SharedScrape to serve, built with SharedScrape.builder(…)"));
	}

	@Override
	public void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			ScrapeFormat format = format(exchange.getRequestHeaders().getFirst("Accept"));
			RenderedScrape rendered;
			try {
				rendered = this.scrape.scrape(format, includedNames(exchange.getRequestURI().getRawQuery()));
			}
			catch (ScrapeTooLargeException ex) {
				byte[] body = (ex.getMessage() + "\n").getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
				exchange.sendResponseHeaders(REFUSED, body.length);
				exchange.getResponseBody().write(body);
				return;
			}
			exchange.getResponseHeaders().set("Content-Type", rendered.contentType());
			if ("HEAD".equals(exchange.getRequestMethod())) {
				exchange.sendResponseHeaders(200, -1);
				return;
			}
			exchange.sendResponseHeaders(200, rendered.size());
			try (OutputStream body = exchange.getResponseBody()) {
				rendered.writeTo(body);
			}
		}
	}

	/**
	 * The format an {@code Accept} header asks for: its media ranges in order of quality,
	 * the first that one of the formats matches (type and subtype), Prometheus text when
	 * there is no header or no match.
	 */
	static ScrapeFormat format(@Nullable String accept) {
		if (accept == null || accept.isBlank()) {
			return ScrapeFormat.PROMETHEUS_TEXT;
		}
		List<MediaRange> ranges = new ArrayList<>();
		for (String range : accept.split(",")) {
			ranges.add(MediaRange.parse(range));
		}
		ranges.sort(Comparator.comparingDouble(MediaRange::quality).reversed());
		for (MediaRange range : ranges) {
			for (ScrapeFormat format : ScrapeFormat.values()) {
				if (range.quality() > 0 && range.matches(format.contentType())) {
					return format;
				}
			}
		}
		return ScrapeFormat.PROMETHEUS_TEXT;
	}

	/**
	 * The names of {@code name[]} and {@code includedNames} parameters, or null for all.
	 */
	static @Nullable Set<String> includedNames(@Nullable String rawQuery) {
		if (rawQuery == null || rawQuery.isEmpty()) {
			return null;
		}
		Set<String> names = new LinkedHashSet<>();
		boolean filtered = false;
		for (String parameter : rawQuery.split("&")) {
			int equals = parameter.indexOf('=');
			String key = decode((equals < 0) ? parameter : parameter.substring(0, equals));
			String value = (equals < 0) ? "" : decode(parameter.substring(equals + 1));
			if (key.equals(NAME)) {
				filtered = true;
				names.add(value);
			}
			else if (key.equals(INCLUDED_NAMES)) {
				filtered = true;
				for (String name : value.split(",")) {
					if (!name.isEmpty()) {
						names.add(name);
					}
				}
			}
		}
		return filtered ? names : null;
	}

	private static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}

	private record MediaRange(String type, String subtype, double quality) {

		static MediaRange parse(String range) {
			String[] parts = range.split(";");
			String[] mime = parts[0].strip().toLowerCase(Locale.ROOT).split("/", 2);
			double quality = 1.0;
			for (int i = 1; i < parts.length; i++) {
				String parameter = parts[i].strip();
				if (parameter.startsWith("q=")) {
					try {
						quality = Double.parseDouble(parameter.substring(2));
					}
					catch (NumberFormatException ex) {
						quality = 0;
					}
				}
			}
			return new MediaRange(mime[0], (mime.length > 1) ? mime[1] : "*", quality);
		}

		boolean matches(String contentType) {
			String[] mime = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT).split("/", 2);
			return (this.type.equals("*") || this.type.equals(mime[0]))
					&& (this.subtype.equals("*") || this.subtype.equals(mime[1]));
		}

	}

}
