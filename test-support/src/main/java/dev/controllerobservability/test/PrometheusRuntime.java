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
	 * @param data the TSDB directory, or the write-ahead log of an agent
	 * @param agent whether to run in agent mode ({@code --enable-feature=agent}), which
	 * scrapes and remote-writes but neither stores, queries nor evaluates rules
	 * @param flags further command-line flags
	 * @return the base URL of its HTTP API, such as {@code http://127.0.0.1:41234}
	 */
	String start(Path config, Path data, boolean agent, List<String> flags) throws IOException;

	/**
	 * The storage flags of a server or an agent; an agent refuses the server's.
	 * @param data the storage directory as Prometheus sees it
	 * @param agent whether it runs in agent mode
	 * @return the flags
	 */
	static List<String> storageFlags(String data, boolean agent) {
		return agent ? List.of("--enable-feature=agent", "--storage.agent.path=" + data)
				: List.of("--storage.tsdb.path=" + data);
	}

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
