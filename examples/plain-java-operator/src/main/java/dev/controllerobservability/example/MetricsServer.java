package dev.controllerobservability.example;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * The JDK's own HTTP server answering {@code /metrics} with the registry's shared scrape,
 * and {@code /lint} and {@code /reference} with the linter's findings and the generated
 * metrics reference.
 */
final class MetricsServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor;

	private MetricsServer(HttpServer server, ExecutorService executor) {
		this.server = server;
		this.executor = executor;
	}

	/**
	 * Starts serving.
	 * @param port the port, or 0 for a free one
	 * @param metrics the handler of the scrape served at {@code /metrics}
	 * @param lint the text served at {@code /lint}
	 * @param reference the text served at {@code /reference}
	 * @return the running server
	 * @throws IOException if the port cannot be bound
	 */
	static MetricsServer start(int port, HttpHandler metrics, Supplier<String> lint, Supplier<String> reference)
			throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
		// More than one thread, so that scrapes arriving together share one rendering.
		ExecutorService executor = Executors.newFixedThreadPool(4);
		server.setExecutor(executor);
		server.createContext("/metrics", metrics);
		server.createContext("/lint", (exchange) -> respond(exchange, "text/plain; charset=utf-8", lint));
		server.createContext("/reference", (exchange) -> respond(exchange, "text/markdown; charset=utf-8", reference));
		server.start();
		return new MetricsServer(server, executor);
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
		this.executor.shutdownNow();
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
