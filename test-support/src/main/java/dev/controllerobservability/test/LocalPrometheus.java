package dev.controllerobservability.test;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code prometheus} binary of the machine (the OS package) on a free loopback
 * port.
 */
final class LocalPrometheus implements PrometheusRuntime {

	private final Path executable;

	private Process process;

	private Path log;

	private LocalPrometheus(Path executable) {
		this.executable = executable;
	}

	static LocalPrometheus find(String path) {
		for (String directory : path.split(File.pathSeparator)) {
			Path candidate = Path.of(directory, "prometheus");
			if (Files.isExecutable(candidate)) {
				return new LocalPrometheus(candidate);
			}
		}
		return null;
	}

	@Override
	public String start(Path config, Path data, boolean agent, List<String> flags) throws IOException {
		int port = freePort();
		this.log = Files.createTempFile("prometheus", ".log");
		List<String> command = new ArrayList<>(List.of(this.executable.toString(), "--config.file=" + config));
		command.addAll(PrometheusRuntime.storageFlags(data.toString(), agent));
		command.addAll(List.of("--web.listen-address=127.0.0.1:" + port, "--web.enable-lifecycle", "--log.level=warn"));
		command.addAll(flags);
		this.process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(this.log.toFile()).start();
		return "http://127.0.0.1:" + port;
	}

	@Override
	public String target(int port) {
		return "127.0.0.1:" + port;
	}

	@Override
	public String output() {
		try {
			return (this.log != null) ? Files.readString(this.log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex.getMessage() + ")";
		}
	}

	@Override
	public void close() {
		if (this.process == null) {
			return;
		}
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		try {
			Files.deleteIfExists(this.log);
		}
		catch (IOException ex) {
			// A leftover log in the temporary directory harms nobody.
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
