package dev.controllerobservability.it.aot;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts the application that {@code process-aot} prepared, in its own JVM with
 * {@code -Dspring.aot.enabled=true}, and checks over HTTP that the starter records
 * operations (the annotation included) and serves the scrape and its endpoints.
 */
class AotControllerApplicationIT {

	private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

	private static Process application;

	private static Path log;

	private static int port;

	@BeforeAll
	static void startAotProcessedApplication() throws IOException {
		Path target = Paths.get(property("aot.application.classes")).getParent();
		log = target.resolve("aot-application.log");
		List<String> command = new ArrayList<>();
		command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Dspring.aot.enabled=true");
		command.add("-cp");
		command
			.add(property("aot.application.classes") + File.pathSeparator + property("aot.application.dependencies"));
		command.add(AotControllerApplication.class.getName());
		command.add("--server.port=0");
		application = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		await().atMost(Duration.ofMinutes(3)).until(() -> startedOrExited(), (started) -> started);
		assertThat(application.isAlive()).as("the application is running; see %s", log).isTrue();
		Matcher matcher = PORT.matcher(Files.readString(log));
		assertThat(matcher.find()).as("the log %s names the port", log).isTrue();
		port = Integer.parseInt(matcher.group(1));
	}

	@AfterAll
	static void stopApplication() throws InterruptedException {
		if (application != null) {
			application.destroy();
			application.waitFor();
		}
	}

	@Test
	void startsFromTheAheadOfTimeGeneratedContext() throws IOException {
		assertThat(Files.readString(log)).contains("Starting AOT-processed AotControllerApplication");
	}

	@Test
	void recordsAnnotatedAndObservedOperationsOnTheScrape() throws Exception {
		assertThat(get("/provisioners/gpu/bind/3").body()).isEqualTo("3");
		assertThat(get("/provisioners/gpu/bind/-1").statusCode()).isEqualTo(400);
		assertThat(get("/provisioners/spot/launch").body()).isEqualTo("launched for spot");
		HttpResponse<String> scrape = get("/actuator/prometheus");
		assertThat(scrape.statusCode()).isEqualTo(200);
		assertThat(scrape.body()).contains(
				"# HELP karpenter_allocation_controller_bind_duration_seconds Duration of binding pods to nodes.\n",
				"karpenter_allocation_controller_bind_duration_seconds_bucket{cluster=\"dev\",error=\"none\","
						+ "provisioner=\"gpu\",result=\"success\",le=\"0.5\"} 1\n",
				"karpenter_allocation_controller_bind_duration_seconds_count{cluster=\"dev\",error=\"IllegalArgumentException\","
						+ "provisioner=\"gpu\",result=\"error\"} 1\n",
				"karpenter_launch_duration_seconds_count{cluster=\"dev\",error=\"none\",provisioner=\"spot\","
						+ "result=\"success\"} 1\n");
	}

	@Test
	void servesTheStartersEndpoints() throws Exception {
		HttpResponse<String> metrics = get("/actuator/controllermetrics");
		assertThat(metrics.statusCode()).isEqualTo(200);
		assertThat(metrics.body()).startsWith("{\"namespace\":\"karpenter\",\"metrics\":[")
			.contains("\"name\":\"karpenter_launch_duration_seconds\"");
		assertThat(get("/actuator/controllermetrics/markdown").body()).startsWith("# Metrics of namespace karpenter");
		HttpResponse<String> lint = get("/actuator/controllermetricslint");
		assertThat(lint.statusCode()).isEqualTo(200);
		assertThat(lint.body()).startsWith("{\"controller\":[],\"framework\":[");
		assertThat(get("/actuator/controllerrules").body()).startsWith("{\"group\":\"karpenter.rules\"");
		assertThat(get("/actuator/controllerrules/prometheusrule").body())
			.startsWith("apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\n");
	}

	@Test
	void writesTheStartersHintsIntoTheNativeImageMetadata() throws IOException {
		Path metadata;
		try (var files = Files.walk(Paths.get(property("aot.generated.resources")))) {
			metadata = files.filter((file) -> file.endsWith("reachability-metadata.json")).findFirst().orElseThrow();
		}
		DocumentContext json = JsonPath.parse(Files.readString(metadata, StandardCharsets.UTF_8));
		assertThat(json.<List<Boolean>>read(
				"$.reflection[?(@.type == 'dev.controllerobservability.operations.ObservedOperation')].allPublicMethods"))
			.containsExactly(true);
		assertThat(json.<List<String>>read(
				"$.reflection[?(@.type == 'dev.controllerobservability.rules.RuleSet')].methods[*].name"))
			.containsExactlyInAnyOrder("alerts", "group", "recordingRules");
		assertThat(json.<List<String>>read(
				"$.reflection[?(@.type == 'dev.controllerobservability.lint.LintFinding')].methods[*].name"))
			.containsExactlyInAnyOrder("controllerMetric", "metric", "text");
	}

	private static boolean startedOrExited() throws IOException {
		return !application.isAlive() || Files.readString(log).contains("Started AotControllerApplication");
	}

	private static HttpResponse<String> get(String path) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
	}

	private static String property(String name) {
		String value = System.getProperty(name);
		assertThat(value).as("system property %s, set by the build", name).isNotBlank();
		return value;
	}

}
