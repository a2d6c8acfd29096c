package dev.controllerobservability.it.otlp;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.metrics.v1.Metric;

/**
 * An OTLP/HTTP metrics receiver on a free local port: it decodes every
 * {@code POST /v1/metrics} (protobuf) and keeps the requests.
 */
final class OtlpReceiver implements AutoCloseable {

	static final String PATH = "/v1/metrics";

	private final HttpServer server;

	private final List<ExportMetricsServiceRequest> requests = new CopyOnWriteArrayList<>();

	OtlpReceiver() {
		try {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot open the OTLP receiver", ex);
		}
		this.server.createContext(PATH, this::receive);
		this.server.start();
	}

	/**
	 * Where an OTLP exporter sends metrics.
	 * @return the receiver's metrics URL
	 */
	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + PATH;
	}

	/**
	 * The most recently received state of a metric; with cumulative temporality it holds
	 * everything recorded so far.
	 * @param name the OTLP metric name
	 * @return the metric from the latest request that carried it
	 */
	Optional<Metric> latest(String name) {
		for (int i = this.requests.size() - 1; i >= 0; i--) {
			Optional<Metric> metric = this.requests.get(i)
				.getResourceMetricsList()
				.stream()
				.flatMap((resource) -> resource.getScopeMetricsList().stream())
				.flatMap((scope) -> scope.getMetricsList().stream())
				.filter((candidate) -> candidate.getName().equals(name))
				.findFirst();
			if (metric.isPresent()) {
				return metric;
			}
		}
		return Optional.empty();
	}

	private void receive(HttpExchange exchange) throws IOException {
		try (exchange; InputStream body = exchange.getRequestBody()) {
			if (!"POST".equals(exchange.getRequestMethod())) {
				exchange.sendResponseHeaders(405, -1);
				return;
			}
			this.requests.add(ExportMetricsServiceRequest.parseFrom(body));
			byte[] response = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
			exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
			exchange.sendResponseHeaders(200, response.length);
			exchange.getResponseBody().write(response);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
