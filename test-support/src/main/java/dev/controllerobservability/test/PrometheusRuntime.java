package dev.controllerobservability.test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * How a Prometheus server is run: the local binary or a container.
 */
interface PrometheusRuntime extends AutoCloseable {

	/**
	 * Starts Prometheus with a configuration file.
	 * @param config the configuration file; rule files sit beside it
	 * @param data the TSDB directory
	 * @param flags further command-line flags
	 * @return the base URL of its HTTP API, such as {@code http://127.0.0.1:41234}
	 */
	String start(Path config, Path data, List<String> flags) throws IOException;

	/**
	 * How Prometheus reaches a port of this machine.
	 * @param port the port
	 * @return a {@code host:port} target
	 */
	String target(int port);

	/**
	 * What Prometheus printed, for failure messages.
	 * @return its recent output
	 */
	String output();

	@Override
	void close();

}
