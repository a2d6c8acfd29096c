package dev.controllerobservability.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus server for integration tests: it scrapes the application under test
 * on its port with a short interval, keeps its TSDB in a temporary directory, answers
 * PromQL through its HTTP API, and is stopped and deleted by {@link #close()}. It runs
 * the {@code prometheus} binary on the PATH (the OS's prometheus package), or, where a
 * Docker engine answers, the official image through Testcontainers. With neither, the
 * calling test is skipped with a message saying how to enable it, except when the
 * environment variable {@code CI} is {@code true}: there a missing Prometheus fails.
 *
 * <pre>{@code
 * try (PrometheusServer prometheus = PrometheusServer.scraping(port).start()) {
 *     prometheus.awaitTargetsUp(Duration.ofSeconds(30));
 *     double calls = prometheus.queryScalar("sum(karpenter_bind_duration_seconds_count)");
 * }
 * }</pre>
 */
public final class PrometheusServer implements AutoCloseable {

	private static final ObjectMapper JSON = JsonMapper.builder().build();

	private final Builder builder;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private PrometheusRuntime runtime;

	private Path directory;

	private String url;

	private PrometheusServer(Builder builder) {
		this.builder = builder;
	}

	/**
	 * Starts configuring a server that scrapes {@code /actuator/prometheus} on a port of
	 * this machine, as job {@code controller}.
	 * @param port the application's (or management) port
	 * @return a builder
	 */
	public static Builder scraping(int port) {
		return new Builder().job("controller", port, "/actuator/prometheus");
	}

	/**
	 * Starts configuring a Prometheus agent ({@code --enable-feature=agent}): it scrapes
	 * its jobs and remote-writes what it scraped, but stores, queries and evaluates
	 * nothing itself, as a fleet's per-cluster agents do. <pre>{@code
	 * PrometheusServer central = PrometheusServer.receivingRemoteWrite().rules(rules).start();
	 * PrometheusServer agent = PrometheusServer.agent().job("controller", "/actuator/prometheus", ports)
	 *     .remoteWriteTo(central).start();
	 * }</pre>
	 * @return a builder with no jobs
	 */
	public static Builder agent() {
		return new Builder().agentMode();
	}

	/**
	 * Starts configuring a server that scrapes nothing and stores what agents
	 * remote-write to it ({@code --web.enable-remote-write-receiver}), evaluating its
	 * rules over it.
	 * @return a builder with no jobs
	 */
	public static Builder receivingRemoteWrite() {
		return new Builder().flags("--web.enable-remote-write-receiver");
	}

	/**
	 * Base URL of the server's HTTP API.
	 * @return such as {@code http://127.0.0.1:41234}
	 */
	public String url() {
		return this.url;
	}

	/**
	 * Waits until every target of every job is up.
	 * @param timeout how long to wait
	 * @return this server
	 * @throws AssertionError with the targets' last errors when time runs out
	 */
	public PrometheusServer awaitTargetsUp(Duration timeout) {
		Instant deadline = Instant.now().plus(timeout);
		JsonNode targets = null;
		while (Instant.now().isBefore(deadline)) {
			targets = get("/api/v1/targets?state=active").get("data").get("activeTargets");
			boolean allUp = targets.size() == this.builder.jobs.stream().mapToInt((job) -> job.ports().size()).sum();
			for (JsonNode target : targets) {
				allUp &= "up".equals(target.get("health").asString());
			}
			if (allUp) {
				return this;
			}
			sleep(200);
		}
		throw new AssertionError("Prometheus targets were not all up within " + timeout + ": " + targets
				+ "\nPrometheus output:\n" + this.runtime.output());
	}

	/**
	 * Runs an instant query.
	 * @param promql the query
	 * @return the instant vector (a scalar comes back as one sample without labels)
	 */
	public List<PrometheusSample> query(String promql) {
		return query(promql, "");
	}

	/**
	 * Runs an instant query at a given time, such as the timestamp of a recorded sample.
	 * @param promql the query
	 * @param time the evaluation time
	 * @return the instant vector (a scalar comes back as one sample without labels)
	 */
	public List<PrometheusSample> query(String promql, Instant time) {
		return query(promql, "&time=" + (time.toEpochMilli() / 1000.0));
	}

	private List<PrometheusSample> query(String promql, String time) {
		JsonNode data = get("/api/v1/query?query=" + encode(promql) + time).get("data");
		List<PrometheusSample> samples = new ArrayList<>();
		if ("scalar".equals(data.get("resultType").asString())) {
			samples.add(new PrometheusSample(Map.of(), value(data.get("result"))));
			return samples;
		}
		for (JsonNode result : data.get("result")) {
			samples.add(new PrometheusSample(labels(result.get("metric")), value(result.get("value"))));
		}
		return samples;
	}

	/**
	 * Runs an instant query that yields one value.
	 * @param promql the query
	 * @return its value
	 * @throws AssertionError when the result is not exactly one sample
	 */
	public double queryScalar(String promql) {
		List<PrometheusSample> samples = query(promql);
		if (samples.size() != 1) {
			throw new AssertionError("Expected one sample from " + promql + " but got " + samples);
		}
		return samples.get(0).value();
	}

	/**
	 * Runs a range query.
	 * @param promql the query
	 * @param start range start
	 * @param end range end
	 * @param step resolution
	 * @return each series' labels and its values in time order
	 */
	public Map<Map<String, String>, List<Double>> queryRange(String promql, Instant start, Instant end, Duration step) {
		JsonNode data = get("/api/v1/query_range?query=" + encode(promql) + "&start=" + start.getEpochSecond() + "&end="
				+ end.getEpochSecond() + "&step=" + step.toSeconds())
			.get("data");
		Map<Map<String, String>, List<Double>> series = new LinkedHashMap<>();
		for (JsonNode result : data.get("result")) {
			List<Double> values = new ArrayList<>();
			result.get("values").forEach((point) -> values.add(value(point)));
			series.put(labels(result.get("metric")), values);
		}
		return series;
	}

	/**
	 * Waits until a query satisfies a condition, such as the expected count having been
	 * scraped.
	 * @param promql the query
	 * @param condition the condition on its samples
	 * @param timeout how long to wait
	 * @return the satisfying samples
	 * @throws AssertionError with the last result when time runs out
	 */
	public List<PrometheusSample> awaitQuery(String promql, Predicate<List<PrometheusSample>> condition,
			Duration timeout) {
		Instant deadline = Instant.now().plus(timeout);
		List<PrometheusSample> samples = List.of();
		while (Instant.now().isBefore(deadline)) {
			samples = query(promql);
			if (condition.test(samples)) {
				return samples;
			}
			sleep(250);
		}
		throw new AssertionError("Query " + promql + " did not reach the expected result within " + timeout
				+ "; last result: " + samples);
	}

	/**
	 * The alerts the server's rules currently have pending or firing.
	 * @return each alert's labels and state ({@code pending} or {@code firing}) under the
	 * label {@code __state__}
	 */
	public List<Map<String, String>> alerts() {
		List<Map<String, String>> alerts = new ArrayList<>();
		for (JsonNode alert : get("/api/v1/alerts").get("data").get("alerts")) {
			Map<String, String> labels = labels(alert.get("labels"));
			labels.put("__state__", alert.get("state").asString());
			alerts.add(labels);
		}
		return alerts;
	}

	/**
	 * The rule groups the server loaded, with each rule's last evaluation health.
	 * @return rule name to health ({@code ok}, {@code err} or {@code unknown})
	 */
	public Map<String, String> ruleHealth() {
		Map<String, String> health = new LinkedHashMap<>();
		for (JsonNode group : get("/api/v1/rules").get("data").get("groups")) {
			for (JsonNode rule : group.get("rules")) {
				health.put(rule.get("name").asString(), rule.get("health").asString());
			}
		}
		return health;
	}

	/**
	 * The server's own metrics, in the Prometheus text format.
	 * @return its {@code /metrics}
	 */
	public String selfMetrics() {
		return send("/metrics");
	}

	/**
	 * Stops the server, waits, and starts it again on the same TSDB directory, as a
	 * Prometheus restart in production would. The URL may change.
	 * @param downtime how long the server stays down
	 * @return this server, ready again
	 */
	public PrometheusServer restart(Duration downtime) {
		this.runtime.close();
		sleep(downtime.toMillis());
		this.runtime = runtime();
		try {
			this.url = this.runtime.start(this.directory.resolve("prometheus.yml"), this.directory.resolve("data"),
					this.builder.agent, this.builder.flags);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not restart Prometheus", ex);
		}
		return awaitReady();
	}

	@Override
	public void close() {
		if (this.runtime != null) {
			this.runtime.close();
		}
		if (this.directory != null) {
			try (Stream<Path> files = Files.walk(this.directory)) {
				files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
			catch (IOException ex) {
				// A leftover temporary directory harms nobody.
			}
		}
	}

	private PrometheusServer start() {
		this.runtime = runtime();
		try {
			this.directory = Files.createTempDirectory("prometheus-test");
			Path data = Files.createDirectories(this.directory.resolve("data"));
			List<String> ruleFiles = new ArrayList<>();
			for (int i = 0; i < this.builder.ruleFiles.size(); i++) {
				String name = "rules-" + i + ".yaml";
				Files.writeString(this.directory.resolve(name), this.builder.ruleFiles.get(i));
				ruleFiles.add(name);
			}
			Path config = Files.writeString(this.directory.resolve("prometheus.yml"), config(ruleFiles));
			this.url = this.runtime.start(config, data, this.builder.agent, this.builder.flags);
		}
		catch (IOException ex) {
			close();
			throw new UncheckedIOException("Could not start Prometheus", ex);
		}
		return awaitReady();
	}

	private PrometheusServer awaitReady() {
		Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
		while (Instant.now().isBefore(deadline)) {
			try {
				HttpResponse<Void> ready = this.http.send(
						HttpRequest.newBuilder(URI.create(this.url + "/-/ready")).build(),
						HttpResponse.BodyHandlers.discarding());
				if (ready.statusCode() == 200) {
					return this;
				}
			}
			catch (IOException ex) {
				// Not listening yet.
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			sleep(100);
		}
		String output = this.runtime.output();
		close();
		throw new AssertionError("Prometheus did not become ready within 60 s:\n" + output);
	}

	private String config(List<String> ruleFiles) {
		long interval = this.builder.scrapeInterval.toMillis();
		StringBuilder yaml = new StringBuilder();
		yaml.append("global:\n  scrape_interval: ").append(interval).append("ms\n");
		yaml.append("  scrape_timeout: ").append(interval).append("ms\n");
		if (!this.builder.agent) {
			yaml.append("  evaluation_interval: ")
				.append(this.builder.evaluationInterval.orElse(this.builder.scrapeInterval).toMillis())
				.append("ms\n");
		}
		if (!this.builder.externalLabels.isEmpty()) {
			yaml.append("  external_labels:\n");
			this.builder.externalLabels
				.forEach((name, value) -> yaml.append("    ").append(name).append(": '").append(value).append("'\n"));
		}
		if (this.builder.remoteWrite != null) {
			URI receiver = URI.create(this.builder.remoteWrite.url());
			yaml.append("remote_write:\n  - url: http://")
				.append(this.runtime.target(receiver.getPort()))
				.append("/api/v1/write\n");
		}
		if (!ruleFiles.isEmpty()) {
			yaml.append("rule_files:\n");
			ruleFiles.forEach((file) -> yaml.append("  - ").append(file).append('\n'));
		}
		yaml.append(this.builder.jobs.isEmpty() ? "" : "scrape_configs:\n");
		for (Job job : this.builder.jobs) {
			yaml.append("  - job_name: ").append(job.name()).append('\n');
			yaml.append("    metrics_path: ").append(job.path()).append('\n');
			yaml.append("    static_configs:\n      - targets: [");
			for (int i = 0; i < job.ports().size(); i++) {
				yaml.append((i > 0) ? ", '" : "'").append(this.runtime.target(job.ports().get(i))).append('\'');
			}
			yaml.append("]\n");
		}
		return yaml.toString();
	}

	private static PrometheusRuntime runtime() {
		return runtime(System.getenv().getOrDefault("PATH", ""), System.getenv("CI"),
				PrometheusServer::dockerAvailable);
	}

	/** Whether Testcontainers is on the classpath and a Docker engine answers. */
	private static boolean dockerAvailable() {
		// ContainerPrometheus needs Testcontainers to load at all, so look for it first.
		try {
			Class.forName("org.testcontainers.DockerClientFactory", false, PrometheusServer.class.getClassLoader());
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
		return ContainerPrometheus.available();
	}

	static PrometheusRuntime runtime(String path, String ci, BooleanSupplier dockerAvailable) {
		PrometheusRuntime local = LocalPrometheus.find(path);
		if (local != null) {
			return local;
		}
		if (dockerAvailable.getAsBoolean()) {
			return new ContainerPrometheus();
		}
		String how = "Install the prometheus binary (Debian/Ubuntu: apt-get install prometheus) or start a Docker engine.";
		if ("true".equalsIgnoreCase(ci)) {
			throw new IllegalStateException(
					"No Prometheus server for the integration tests: no prometheus binary on the "
							+ "PATH and no Docker engine. In CI that is a broken machine; .ci/run installs the OS package. "
							+ how);
		}
		Assumptions.abort("No Prometheus server available, so this test is skipped. " + how);
		return null;
	}

	private JsonNode get(String path) {
		JsonNode body = JSON.readTree(send(path));
		if (!"success".equals(body.get("status").asString())) {
			throw new AssertionError("Prometheus answered " + body + " to " + path);
		}
		return body;
	}

	private String send(String path) {
		try {
			HttpResponse<String> response = this.http.send(
					HttpRequest.newBuilder(URI.create(this.url + path)).timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			return response.body();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Prometheus did not answer " + path, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while querying Prometheus", ex);
		}
	}

	private static Map<String, String> labels(JsonNode metric) {
		Map<String, String> labels = new LinkedHashMap<>();
		metric.properties().forEach((entry) -> labels.put(entry.getKey(), entry.getValue().asString()));
		return labels;
	}

	private static double value(JsonNode point) {
		String text = point.get(1).asString();
		return switch (text) {
			case "NaN" -> Double.NaN;
			case "+Inf" -> Double.POSITIVE_INFINITY;
			case "-Inf" -> Double.NEGATIVE_INFINITY;
			default -> Double.parseDouble(text);
		};
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private record Job(String name, List<Integer> ports, String path) {
	}

	/** Configures a {@link PrometheusServer}. */
	public static final class Builder {

		private final List<Job> jobs = new ArrayList<>();

		private final List<String> ruleFiles = new ArrayList<>();

		private final List<String> flags = new ArrayList<>();

		private final Map<String, String> externalLabels = new LinkedHashMap<>();

		private Duration scrapeInterval = Duration.ofSeconds(1);

		private Optional<Duration> evaluationInterval = Optional.empty();

		private boolean agent;

		private PrometheusServer remoteWrite;

		private Builder() {
		}

		private Builder agentMode() {
			this.agent = true;
			return this;
		}

		/**
		 * Adds a scrape job with one target per port, as one job scrapes a controller's
		 * replicas.
		 * @param name the job name
		 * @param path the metrics path
		 * @param ports the ports of this machine to scrape
		 * @return this builder
		 */
		public Builder job(String name, String path, List<Integer> ports) {
			this.jobs.add(new Job(name, List.copyOf(ports), path));
			return this;
		}

		/**
		 * Sends every scraped sample to a server started with
		 * {@link PrometheusServer#receivingRemoteWrite()}.
		 * @param receiver the receiving server, already started
		 * @return this builder
		 */
		public Builder remoteWriteTo(PrometheusServer receiver) {
			this.remoteWrite = receiver;
			return this;
		}

		/**
		 * Adds an external label ({@code global.external_labels}), which Prometheus puts
		 * on every series it remote-writes.
		 * @param name the label name
		 * @param value its value
		 * @return this builder
		 */
		public Builder externalLabel(String name, String value) {
			this.externalLabels.put(name, value);
			return this;
		}

		/**
		 * Sets the rule evaluation interval, when it should differ from the scrape
		 * interval (a server that only receives remote writes scrapes nothing).
		 * @param interval the interval
		 * @return this builder
		 */
		public Builder evaluationInterval(Duration interval) {
			this.evaluationInterval = Optional.of(interval);
			return this;
		}

		/**
		 * Adds a scrape job.
		 * @param name the job name
		 * @param port the port of this machine to scrape
		 * @param path the metrics path
		 * @return this builder
		 */
		public Builder job(String name, int port, String path) {
			this.jobs.add(new Job(name, List.of(port), path));
			return this;
		}

		/**
		 * Loads a rules file (its YAML text) into the server.
		 * @param rules the rules file
		 * @return this builder
		 */
		public Builder rules(String rules) {
			this.ruleFiles.add(rules);
			return this;
		}

		/**
		 * Adds command-line flags to the server's own, such as
		 * {@code --enable-feature=native-histograms}.
		 * @param flags the flags
		 * @return this builder
		 */
		public Builder flags(String... flags) {
			this.flags.addAll(List.of(flags));
			return this;
		}

		/**
		 * Sets the scrape and rule evaluation interval.
		 * @param interval the interval; default one second
		 * @return this builder
		 */
		public Builder scrapeInterval(Duration interval) {
			this.scrapeInterval = interval;
			return this;
		}

		/**
		 * Starts the server and waits until it is ready.
		 * @return the running server
		 */
		public PrometheusServer start() {
			return new PrometheusServer(this).start();
		}

	}

}
