package dev.controllerobservability.rules;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated {@code PrometheusRule}, {@code ServiceMonitor} and {@code PodMonitor}
 * validate against the {@code openAPIV3Schema} of the Prometheus Operator's own CRDs
 * (test resources, see their README), with a JSON-schema validator rather than checks of
 * our own.
 */
class PrometheusOperatorManifestsTests {

	private static final ObjectMapper json = new ObjectMapper();

	private final ScrapeTarget target = new ScrapeTarget("demo-controller",
			Map.of("app.kubernetes.io/name", "demo-controller"), Map.of("release", "prometheus"), "http",
			"/actuator/prometheus", "30s");

	@Test
	void prometheusRuleMatchesItsCrd() throws IOException {
		RuleSet rules = new RuleSet("karpenter.rules",
				List.of(new RecordingRule("provisioner:karpenter_bind_duration_seconds_count:rate5m",
						"sum by (provisioner) (rate(karpenter_bind_duration_seconds_count[5m]))", Map.of())),
				List.of(new AlertRule("KarpenterBindErrors", "rate(karpenter_bind_duration_seconds_count[5m]) > 0",
						"5m", "warning", "Binds fail for {{ $labels.provisioner }}", null, null, Map.of(), Map.of())));
		String manifest = rules.toPrometheusRule("demo-controller-rules", Map.of("release", "prometheus"));
		assertThat(problems("prometheusrules", manifest)).isEmpty();
	}

	@Test
	void serviceMonitorMatchesItsCrd() throws IOException {
		Map<String, Object> manifest = yaml(this.target.toServiceMonitor());
		assertThat(manifest).containsEntry("kind", "ServiceMonitor");
		assertThat(problems("servicemonitors", this.target.toServiceMonitor())).isEmpty();
		assertThat(endpoint(manifest, "endpoints")).containsEntry("port", "http")
			.containsEntry("path", "/actuator/prometheus")
			.containsEntry("interval", "30s");
	}

	@Test
	void podMonitorMatchesItsCrd() throws IOException {
		Map<String, Object> manifest = yaml(this.target.toPodMonitor());
		assertThat(manifest).containsEntry("kind", "PodMonitor");
		assertThat(problems("podmonitors", this.target.toPodMonitor())).isEmpty();
		assertThat(endpoint(manifest, "podMetricsEndpoints")).containsEntry("port", "http");
	}

	@Test
	void theSchemasRefuseWhatTheOperatorWouldRefuse() throws IOException {
		// A check that cannot fail proves nothing: these are refused by the CRDs.
		assertThat(
				problems("servicemonitors", this.target.toServiceMonitor().replace("interval: 30s", "interval: soon")))
			.anySatisfy((problem) -> assertThat(problem).contains("interval"));
		assertThat(problems("podmonitors", this.target.toPodMonitor().replace("port: http", "port: [http]")))
			.anySatisfy((problem) -> assertThat(problem).contains("port"));
		assertThat(problems("prometheusrules", """
				apiVersion: monitoring.coreos.com/v1
				kind: PrometheusRule
				metadata: {name: broken}
				spec:
				  groups:
				  - rules: [{alert: NoGroupName, expr: up == 0}]
				""")).anySatisfy((problem) -> assertThat(problem).contains("name"));
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "prometheusrule.yaml,prometheusrules", "servicemonitor.yaml,servicemonitors",
			"podmonitor.yaml,podmonitors" })
	void theDemosGeneratedManifestsMatchTheirCrds(String file, String plural) throws IOException {
		String manifest = Files.readString(Path.of("..", "docs", "reference", file));
		assertThat(problems(plural, manifest)).isEmpty();
	}

	/** What the CRD's v1 schema says is wrong with the manifest. */
	private static Set<String> problems(String plural, String manifest) throws IOException {
		JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4)
			.getSchema(json.valueToTree(openApiSchema(plural)));
		return schema.validate(json.valueToTree(yaml(manifest)))
			.stream()
			.map(ValidationMessage::getMessage)
			.collect(Collectors.toSet());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> openApiSchema(String plural) throws IOException {
		try (InputStream crd = PrometheusOperatorManifestsTests.class
			.getResourceAsStream("/prometheus-operator-crds/monitoring.coreos.com_" + plural + ".yaml")) {
			Map<String, Object> definition = new Yaml().load(crd);
			List<Map<String, Object>> versions = (List<Map<String, Object>>) ((Map<String, Object>) definition
				.get("spec")).get("versions");
			Map<String, Object> v1 = versions.stream()
				.filter((version) -> "v1".equals(version.get("name")))
				.findFirst()
				.orElseThrow();
			return (Map<String, Object>) ((Map<String, Object>) v1.get("schema")).get("openAPIV3Schema");
		}
	}

	private static Map<String, Object> yaml(String text) {
		return new Yaml().load(text);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> endpoint(Map<String, Object> manifest, String key) {
		Map<String, Object> spec = (Map<String, Object>) manifest.get("spec");
		return ((List<Map<String, Object>>) spec.get(key)).get(0);
	}

}
