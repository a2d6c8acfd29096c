package dev.controllerobservability.example;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The JDK's own HTTP server answering {@code /metrics} with the registry's scrape, and
 * {@code /lint} and {@code /reference} with the linter's findings and the generated
 * metrics reference.
 */
final class MetricsServer implements AutoCloseable {

	private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

	private final HttpServer server;

	private MetricsServer(HttpServer server) {
		this.server = server;
	}

	/**
	 * Starts serving.
	 * @param port the port, or 0 for a free one
	 * @param scrape the scrape served at {@code /metrics}
	 * @param lint the text served at {@code /lint}
	 * @param reference the text served at {@code /reference}
	 * @return the running server
	 * @throws IOException if the port cannot be bound
	 */
	static MetricsServer start(int port, Supplier<String> scrape, Supplier<String> lint, Supplier<String> reference)
			throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
		server.createContext("/metrics", (exchange) -> respond(exchange, TEXT_FORMAT, scrape));
		server.createContext("/lint", (exchange) -> respond(exchange, "text/plain; charset=utf-8", lint));
		server.createContext("/reference", (exchange) -> respond(exchange, "text/markdown; charset=utf-8", reference));
		server.start();
		return new MetricsServer(server);
	}

	/**
	 * The port served on.
	 * @return the port
	 */
	int port() {
		return this.server.getAddress().getPort();
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	private static void respond(HttpExchange exchange, String contentType, Supplier<String> body) throws IOException {
		try (exchange) {
			byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", contentType);
			exchange.sendResponseHeaders(200, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}
	}

}
