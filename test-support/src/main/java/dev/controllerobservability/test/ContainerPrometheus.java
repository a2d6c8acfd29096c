package dev.controllerobservability.test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.Testcontainers;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * Runs the official Prometheus image with Testcontainers, reaching the application
 * through the host. Used only where a Docker engine answers.
 */
final class ContainerPrometheus implements PrometheusRuntime {

	static final String IMAGE = "prom/prometheus:v2.53.4";

	private GenericContainer<?> container;

	static boolean available() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (LinkageError | RuntimeException ex) {
			return false;
		}
	}

	@Override
	@SuppressWarnings("resource")
	public String start(Path config, Path data, boolean agent, List<String> flags) {
		List<String> command = new ArrayList<>(List.of("--config.file=/etc/controller-test/" + config.getFileName()));
		command.addAll(PrometheusRuntime.storageFlags("/prometheus", agent));
		command.add("--web.enable-lifecycle");
		command.addAll(flags);
		this.container = new GenericContainer<>(IMAGE)
			.withFileSystemBind(config.getParent().toString(), "/etc/controller-test", BindMode.READ_ONLY)
			.withCommand(command.toArray(String[]::new))
			.withExposedPorts(9090)
			.waitingFor(Wait.forHttp("/-/ready").forStatusCode(200));
		this.container.start();
		return "http://" + this.container.getHost() + ":" + this.container.getMappedPort(9090);
	}

	@Override
	public String target(int port) {
		Testcontainers.exposeHostPorts(port);
		return "host.testcontainers.internal:" + port;
	}

	@Override
	public String output() {
		return (this.container != null) ? this.container.getLogs() : "";
	}

	@Override
	public void close() {
		if (this.container != null) {
			this.container.stop();
		}
	}

}
