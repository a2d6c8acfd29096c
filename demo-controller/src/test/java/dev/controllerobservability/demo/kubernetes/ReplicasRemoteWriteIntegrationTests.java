package dev.controllerobservability.demo.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.controllerobservability.demo.DemoControllerApplication;
import dev.controllerobservability.demo.DemoProperties;
import dev.controllerobservability.test.PrometheusSample;
import dev.controllerobservability.test.PrometheusServer;
import dev.controllerobservability.test.Promtool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * Three replicas of the kubernetes-mode demo, each its own JVM, share one fabric8 mock
 * API server and one lease. A Prometheus agent scrapes them and remote-writes to a
 * central Prometheus that evaluates the demo's generated rules. The rules and the
 * dashboard must mean with three replicas what they mean with one, and still after the
 * leader is killed with SIGKILL, which leaves its lease unreleased.
 */
class ReplicasRemoteWriteIntegrationTests {

	private static final int REPLICAS = 3;

	private static final String LEADER_STATUS = "leader_election_master_status{name=\"" + KubernetesMode.LEASE_NAME
			+ "\"}";

	/** Only this provisioner's launches fail, so only its alerts may be pending. */
	private static final String FAILING = "spot";

	private static final Duration TIMEOUT = Duration.ofMinutes(3);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final List<Replica> replicas = new ArrayList<>();

	private final List<AutoCloseable> resources = new ArrayList<>();

	@TempDir
	private Path logs;

	@AfterEach
	void stop() throws Exception {
		for (Replica replica : this.replicas) {
			replica.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void rulesAndDashboardMeanTheSameOverReplicasAndAfterTheLeaderIsKilled() throws Exception {
		DemoProperties properties = demoProperties();
		KubernetesMockServer apiServer = new KubernetesMode.EmbeddedApiServer().kubernetesMockServer(properties);
		this.resources.add(apiServer::destroy);
		KubernetesClient client = apiServer.createClient();
		this.resources.add(client);
		PodArrivals arrivals = new PodArrivals(client, properties);
		arrivals.start();
		this.resources.add(arrivals::stop);
		String master = client.getConfiguration().getMasterUrl();
		for (int i = 0; i < REPLICAS; i++) {
			this.replicas.add(startReplica(i, master));
		}
		List<Integer> ports = this.replicas.stream().map(Replica::port).toList();
		String rules = await().atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(500))
			.ignoreExceptions()
			.until(() -> get(ports.get(0), "/actuator/controllerrules/prometheus"), (body) -> body.contains("groups:"));
		// The leader-election alerts are evaluated too: none may be pending over the run.
		assertThat(rules).contains("alert: LeaderElectionNoLeader", "alert: LeaderElectionReconcilingWithoutLease");
		PrometheusServer central = PrometheusServer.receivingRemoteWrite()
			.rules(rules)
			.evaluationInterval(Duration.ofSeconds(1))
			.start();
		this.resources.add(central);
		PrometheusServer.Builder agentBuilder = PrometheusServer.agent()
			.job((String) HighAvailabilityDocs.agentJob().get("job_name"),
					(String) HighAvailabilityDocs.agentJob().get("metrics_path"), ports);
		HighAvailabilityDocs.agentExternalLabels().forEach(agentBuilder::externalLabel);
		PrometheusServer agent = agentBuilder.remoteWriteTo(central).start();
		this.resources.add(agent);
		Instant begin = Instant.now();
		agent.awaitTargetsUp(TIMEOUT);

		List<String> dashboard = dashboardQueries(get(ports.get(0), "/actuator/controllerrules/dashboard"));
		Replica leader = awaitOneLeader(central, null);
		awaitReconciling(central, leader);
		assertSummedPerControllerEqualsLeaders(central, List.of(leader));
		assertDashboardEqualsLeaders(central, dashboard, List.of(leader));
		assertNoAlerts(central, begin);
		assertCommonTagWinsOverExternalLabel(central, leader);

		leader.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		await().atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(500))
			.untilAsserted(() -> assertThat(central.query("up{instance=\"" + leader.instance() + "\"}")).singleElement()
				.satisfies((up) -> assertThat(up.value()).isZero()));
		await().atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(500))
			.untilAsserted(() -> assertThat(
					central.query("{instance=\"" + leader.instance() + "\", __name__!~\"" + "up|scrape_.*\"}"))
				.as("series of the killed replica still answering instant queries")
				.isEmpty());
		Replica successor = awaitOneLeader(central, leader);
		assertThat(successor.instance()).isNotEqualTo(leader.instance());
		awaitReconciling(central, successor);
		// Over the rate window the controller's work is the killed leader's and its
		// successor's: the third replica, always a follower, still adds nothing.
		assertSummedPerControllerEqualsLeaders(central, List.of(leader, successor));
		assertDashboardEqualsLeaders(central, dashboard, List.of(leader, successor));
		assertNoAlerts(central, begin);
	}

	@Test
	void agentConfigurationOfTheDocsPassesPromtool() throws Exception {
		Path config = Files.writeString(this.logs.resolve("agent.yml"), HighAvailabilityDocs.agentConfig());
		assertThat(Promtool.checkConfig(config, true)).contains("SUCCESS");
		assertThat(HighAvailabilityDocs.agentExternalLabels()).containsKeys("cluster", "__replica__");
	}

	/**
	 * Waits until exactly one live replica leads, and it is not the given one.
	 */
	private Replica awaitOneLeader(PrometheusServer central, Replica previous) {
		List<PrometheusSample> leading = await().atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(500))
			.until(() -> central.query(LEADER_STATUS + " == 1"), (samples) -> samples.size() == 1
					&& (previous == null || !previous.instance().equals(samples.get(0).labels().get("instance"))));
		String instance = leading.get(0).labels().get("instance");
		// Every live replica reports the gauge, and only one reads 1: the leader is
		// neither missing nor counted three times.
		int live = (previous != null) ? REPLICAS - 1 : REPLICAS;
		assertThat(central.query(LEADER_STATUS)).hasSize(live);
		assertThat(central.queryScalar("sum(" + LEADER_STATUS + ")")).isEqualTo(1);
		// Each series arrives with the agent's external labels.
		assertThat(central.query(LEADER_STATUS)).allSatisfy((sample) -> assertThat(sample.labels())
			.containsAllEntriesOf(Map.of("cluster", HighAvailabilityDocs.agentExternalLabels().get("cluster"))));
		// The info panel counts the live replicas by version.
		assertThat(central.query("sum by (version) (karpenter_build_info)")).singleElement()
			.satisfies((sample) -> assertThat(sample.value()).isEqualTo(live));
		return this.replicas.stream()
			.filter((replica) -> replica.instance().equals(instance))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Prometheus adds an external label only to a series without it: the demo's common
	 * tag {@code cluster} stays on the controller's own series, the agent's value goes on
	 * {@code up} and the standard families.
	 */
	private static void assertCommonTagWinsOverExternalLabel(PrometheusServer central, Replica leader) {
		String external = HighAvailabilityDocs.agentExternalLabels().get("cluster");
		assertThat(external).isNotEqualTo("demo");
		assertThat(central
			.query("karpenter_cloudprovider_launch_duration_seconds_count{instance=\"" + leader.instance() + "\"}"))
			.isNotEmpty()
			.allSatisfy((sample) -> assertThat(sample.labels()).containsEntry("cluster", "demo"));
		assertThat(central.query("up{instance=\"" + leader.instance() + "\"}")).singleElement()
			.satisfies((sample) -> assertThat(sample.labels()).containsEntry("cluster", external));
	}

	private void awaitReconciling(PrometheusServer central, Replica leader) {
		String selector = "{instance=\"" + leader.instance() + "\"}";
		await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
			assertThat(central.query("increase(controller_runtime_reconcile_total" + selector + "[1m]) > 0"))
				.isNotEmpty();
			assertThat(central.query("increase(karpenter_cloudprovider_launch_duration_seconds_count" + "{instance=\""
					+ leader.instance() + "\", result=\"error\"}[1m]) > 0"))
				.isNotEmpty();
		});
	}

	/**
	 * The central's recorded rates, taken at one evaluation, equal what the leaders' own
	 * counters give at that instant: followers add nothing, the leader is not counted
	 * three times. A rule evaluated before a late remote write arrived differs, so this
	 * waits for an evaluation that saw everything.
	 */
	private void assertSummedPerControllerEqualsLeaders(PrometheusServer central, List<Replica> leaders) {
		String record = "provisioner_result:karpenter_cloudprovider_launch_duration_seconds_count:rate5m";
		String leaderLaunches = "sum by (provisioner, result) (rate(karpenter_cloudprovider_launch_duration_seconds_count"
				+ leaders(leaders) + "[5m]))";
		String reconciles = "sum by (controller) (rate(controller_runtime_reconcile_total[5m]))";
		String leaderReconciles = "sum by (controller) (rate(controller_runtime_reconcile_total" + leaders(leaders)
				+ "[5m]))";
		String errorRatio = record + "{result=\"error\"} / ignoring (result) sum by (provisioner) (" + record
				+ "{result!=\"cancelled\"})";
		await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
			Instant evaluated = Instant
				.ofEpochMilli((long) (central.queryScalar("max(timestamp(" + record + "))") * 1000));
			assertSameValues(central.query(record, evaluated), central.query(leaderLaunches, evaluated));
			assertSameValues(central.query(reconciles, evaluated), central.query(leaderReconciles, evaluated));
			Map<Map<String, String>, Double> ratios = values(central.query(errorRatio, evaluated));
			assertThat(ratios.get(Map.of("provisioner", FAILING))).as("error ratio of %s", FAILING).isPositive();
		});
		// Followers reconcile nothing and launch nothing: they expose no operation series
		// at all, and controller-runtime's families at 0.
		String followers = "{instance!~\"" + instances(leaders) + "\"}";
		assertThat(central.query("karpenter_cloudprovider_launch_duration_seconds_count" + followers)).isEmpty();
		assertThat(central.query("controller_runtime_reconcile_total" + followers)).isNotEmpty()
			.allSatisfy((sample) -> assertThat(sample.value()).isZero());
		assertThat(central.queryScalar("sum(controller_runtime_reconcile_total" + followers + ") or vector(0)"))
			.isZero();
		assertThat(central
			.queryScalar("sum(karpenter_cloudprovider_launch_duration_seconds_count" + followers + ") or vector(0)"))
			.isZero();
	}

	private static void assertSameValues(List<PrometheusSample> actual, List<PrometheusSample> expected) {
		Map<Map<String, String>, Double> expectedValues = values(expected);
		assertThat(expectedValues).isNotEmpty();
		Map<Map<String, String>, Double> actualValues = values(actual);
		assertThat(actualValues).containsOnlyKeys(expectedValues.keySet());
		expectedValues.forEach((labels, value) -> assertThat(actualValues.get(labels)).as("%s", labels)
			.isCloseTo(value, within(Math.abs(value) * 1e-9)));
	}

	private static Map<Map<String, String>, Double> values(List<PrometheusSample> samples) {
		Map<Map<String, String>, Double> values = new LinkedHashMap<>();
		for (PrometheusSample sample : samples) {
			Map<String, String> labels = new LinkedHashMap<>(sample.labels());
			labels.remove("__name__");
			values.put(labels, sample.value());
		}
		return values;
	}

	/**
	 * Over the whole run, pending included, the only alerts are those the leader's own
	 * failing launches justify.
	 */
	private static void assertNoAlerts(PrometheusServer central, Instant begin) {
		long seconds = Duration.between(begin, Instant.now()).toSeconds() + 60;
		List<PrometheusSample> alerts = central.query("max_over_time(ALERTS[" + seconds + "s])");
		assertThat(alerts).allSatisfy((alert) -> assertThat(alert.labels()).as("alert %s", alert.labels())
			.containsAnyOf(Map.entry("provisioner", FAILING), Map.entry("name", FAILING)));
	}

	private static String leaders(List<Replica> leaders) {
		return "{instance=~\"" + instances(leaders) + "\"}";
	}

	private static String instances(List<Replica> replicas) {
		return String.join("|", replicas.stream().map(Replica::instance).toList());
	}

	/**
	 * Every dashboard query answers over all replicas what it answers over the leaders
	 * alone, at the same instant. The info panel is left out: it counts replicas by
	 * version, by design.
	 */
	private static void assertDashboardEqualsLeaders(PrometheusServer central, List<String> dashboard,
			List<Replica> leaders) {
		String all = "job=~\".*\"";
		String onlyLeaders = all + ", instance=~\"" + instances(leaders) + "\"";
		await().atMost(TIMEOUT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
			Instant at = Instant.now().minusSeconds(5);
			int compared = 0;
			for (String query : dashboard) {
				String promql = ControllerRuntimeDashboardsTests.promql(query);
				if (promql.contains("_info{")) {
					continue;
				}
				assertThat(promql).as("dashboard query selects by job").contains(all);
				Map<Map<String, String>, Double> expected = values(central.query(promql.replace(all, onlyLeaders), at));
				Map<Map<String, String>, Double> actual = values(central.query(promql, at));
				assertThat(actual.keySet()).as(promql).isEqualTo(expected.keySet());
				expected.forEach((labels,
						value) -> assertThat(Double.compare(actual.get(labels), value) == 0
								|| Math.abs(actual.get(labels) - value) <= Math.abs(value) * 1e-9)
							.as("%s%s: %s over all replicas, %s over the leaders", promql, labels, actual.get(labels),
									value)
							.isTrue());
				compared++;
			}
			assertThat(compared).isGreaterThan(20);
		});
	}

	private static List<String> dashboardQueries(String dashboard) {
		List<String> queries = new ArrayList<>();
		collectQueries(JsonMapper.builder().build().readTree(dashboard).get("panels"), queries);
		return queries;
	}

	private static void collectQueries(JsonNode panels, List<String> queries) {
		for (JsonNode panel : panels) {
			if (panel.has("panels")) {
				collectQueries(panel.get("panels"), queries);
			}
			if (panel.has("targets")) {
				panel.get("targets").forEach((target) -> queries.add(target.get("expr").asString()));
			}
		}
	}

	private DemoProperties demoProperties() {
		DemoProperties properties = new DemoProperties();
		properties.setRoundInterval(Duration.ofMillis(500));
		properties.setMaxArrivalsPerRound(3);
		for (String name : List.of("default", "gpu", FAILING)) {
			properties.getProvisioners().put(name, new DemoProperties.Provisioner());
		}
		return properties;
	}

	private Replica startReplica(int index, String master) throws IOException {
		int port = freePort();
		Path log = this.logs.resolve("replica-" + index + ".log");
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
				// fabric8's own configuration: the shared API server, no kubeconfig.
				"-Dkubernetes.master=" + master, "-Dkubernetes.auth.tryKubeConfig=false",
				"-Dkubernetes.auth.tryServiceAccount=false", "-Dkubernetes.namespace=default",
				DemoControllerApplication.class.getName(), "--server.port=" + port, "--demo.mode=kubernetes",
				"--demo.kubernetes.api-server=kubeconfig", "--demo.kubernetes.server-side-apply=false",
				"--demo.kubernetes.leader-election.lease-duration=6s",
				"--demo.kubernetes.leader-election.renew-deadline=4s",
				"--demo.kubernetes.leader-election.retry-period=1s",
				"--demo.provisioners.default.launch-failure-rate=0", "--demo.provisioners.gpu.launch-failure-rate=0",
				"--demo.provisioners." + FAILING + ".interruption-rate=0", "--demo.min-launch-latency=1ms",
				"--demo.max-launch-latency=5ms",
				// A bind is an API call whose latency is the machine's, not the
				// replicas'.
				"--controller.observability.rules.operations.bind.latency.threshold=60s",
				"--management.endpoints.web.exposure.include=prometheus,controllerrules",
				"--controller.observability.kubernetes.leader-election.alerts.enabled=true",
				"--logging.level.io.javaoperatorsdk=WARN"));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
		// Each pod has its own host name, which JOSDK takes as its lease identity.
		builder.environment().put("HOSTNAME", "replica-" + index);
		return new Replica(builder.start(), port, log);
	}

	private String get(int port, String path) {
		try {
			return this.http
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
						HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
				.body();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private record Replica(Process process, int port, Path log) {

		String instance() {
			return "127.0.0.1:" + this.port;
		}

		@Override
		public String toString() {
			try {
				return instance() + " log:\n" + Files.readString(this.log);
			}
			catch (IOException ex) {
				return instance();
			}
		}

	}

}
