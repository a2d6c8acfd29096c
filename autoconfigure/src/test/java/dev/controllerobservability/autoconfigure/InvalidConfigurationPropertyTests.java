package dev.controllerobservability.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One random mistake in any property of the starter, among random valid settings of the
 * others: start-up fails as a whole, with a failure analysis naming that property.
 */
class InvalidConfigurationPropertyTests {

	private static final String P = "controller.observability.";

	private static final String SYSTEM_PROPERTY = "-D";

	private static final String ENVIRONMENT_VARIABLE = "env:";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class));

	@Property(tries = 160)
	void everyMistakeStopsStartUpNamingItsProperty(@ForAll("configurations") Configuration configuration) {
		this.contextRunner.withPropertyValues(configuration.sourced("").toArray(String[]::new))
			.withSystemProperties(configuration.sourced(SYSTEM_PROPERTY).toArray(String[]::new))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								environment(configuration.sourced(ENVIRONMENT_VARIABLE)))))
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = ControllerObservabilityFailureAnalysis.analyze(context.getStartupFailure());
				assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
				assertThat(analysis.getDescription()).contains("Property: " + configuration.expected() + "\n");
				assertThat(analysis.getAction()).isNotBlank();
			});
	}

	@Provide
	Arbitrary<Configuration> configurations() {
		Arbitrary<List<String>> valid = Arbitraries
			.of(P + "namespace=karpenter", P + "common-tags.cluster=dev", P + "duration-buckets=0.1,1,10",
					P + "operations.tags=provisioner,node_pool", P + "operations.definitions.bind.subsystem=allocation",
					P + "version=1.5.0", P + "max-label-values=50", P + "lint.mode=warn", P + "error-log-interval=30s")
			.list()
			.uniqueElements()
			.ofMaxSize(5);
		Arbitrary<String[]> mistakes = Arbitraries.oneOf(
				Arbitraries.of("Karpenter", "9lives", "my-controller", "__x", "jvm", "http")
					.map((value) -> mistake(P + "namespace", "namespace=" + value)),
				Arbitraries.of("Zone", "node-pool", "le", "result")
					.map((key) -> mistake(P + "common-tags." + key, "common-tags." + key + "=x")),
				Arbitraries.of("1,0.5", "0.1,-1", "0.1,0.1", "0")
					.map((value) -> mistake(P + "duration-buckets[" + badIndex(value) + "]",
							"duration-buckets=" + value)),
				Arbitraries.of("Nodes", "nodes-created", ".x")
					.map((value) -> mistake(P + "meter-prefixes[0]", "meter-prefixes=" + value)),
				Arbitraries.of("Provisioner", "error", "a-b")
					.map((value) -> mistake(P + "operations.tags[0]", "operations.tags=" + value)),
				Arbitraries.of("Allocation Controller", "9sub")
					.map((value) -> mistake(P + "operations.definitions.bind.subsystem",
							"operations.definitions.bind.subsystem=" + value)),
				Arbitraries.of("2,1", "-5")
					.map((value) -> mistake(P + "operations.definitions.launch.buckets[" + badIndex(value) + "]",
							"operations.definitions.launch.buckets=" + value)),
				Arbitraries.of("1.5", "next", "v1.2.3").map((value) -> mistake(P + "version", "version=" + value)),
				Arbitraries.of("1.3", "2.4", "x")
					.map((value) -> mistake(P + "show-hidden-metrics-for-version", "version=1.5.0",
							"show-hidden-metrics-for-version=" + value)),
				Arbitraries.of("0", "-3").map((value) -> mistake(P + "max-label-values", "max-label-values=" + value)),
				Arbitraries.of("0", "-1")
					.map((value) -> mistake(P + "max-label-value-length", "max-label-value-length=" + value)),
				Arbitraries.of("Zone", "a-b")
					.map((label) -> mistake(P + "label-allow-list.karpenter_x_total." + label,
							"label-allow-list.karpenter_x_total." + label + "=a")),
				Arbitraries.of("namespce", "metric", "lint-mode").map((typo) -> mistake(P + typo, typo + "=x")),
				Arbitraries.of("0.1,x", "fast")
					.map((value) -> mistake(P + "duration-buckets", "duration-buckets=" + value)),
				Arbitraries.of("many", "1.5")
					.map((value) -> mistake(P + "max-label-values", "max-label-values=" + value)),
				Arbitraries.of("loud", "strict").map((value) -> mistake(P + "lint.mode", "lint.mode=" + value)),
				Arbitraries.of("soon", "5 minutes")
					.map((value) -> mistake(P + "error-log-interval", "error-log-interval=" + value)),
				Arbitraries.of("-1s").map((value) -> mistake(P + "error-log-interval", "error-log-interval=" + value)),
				Arbitraries.of("launch_errors", "launchErrors")
					.map((name) -> mistake(P + "alerts." + name, "alerts." + name + ".expr=up == 0",
							"alerts." + name + ".severity=warning", "alerts." + name + ".summary=s")),
				Arbitraries.of("page", "")
					.map((severity) -> mistake(P + "alerts.LaunchErrors.severity", "alerts.LaunchErrors.expr=up == 0",
							"alerts.LaunchErrors.summary=s", "alerts.LaunchErrors.severity=" + severity)),
				Arbitraries.of("sum(up", "rate(up[5 m])")
					.map((expr) -> mistake(P + "alerts.LaunchErrors.expr", "alerts.LaunchErrors.expr=" + expr,
							"alerts.LaunchErrors.summary=s", "alerts.LaunchErrors.severity=info")),
				Arbitraries.of("0", "1.5", "-0.1")
					.map((value) -> mistake(P + "rules.operations.bind.error-ratio.threshold",
							"rules.operations.bind.error-ratio.enabled=true",
							"rules.operations.bind.error-ratio.threshold=" + value)),
				Arbitraries.of("0.0000000001,1", "1,1e300", "1.0000000001,1.0000000002")
					.map((value) -> mistake(P + "duration-buckets[" + (value.startsWith("0") ? 0 : 1) + "]",
							"duration-buckets=" + value)),
				Arbitraries.of("0.0000000001", "1e19")
					.map((value) -> mistake(P + "operations.definitions.launch.buckets[0]",
							"operations.definitions.launch.buckets=" + value)),
				Arbitraries.of("jvm", "process.cpu", "http.server", "tomcat")
					.map((value) -> mistake(P + "meter-prefixes[0]", "meter-prefixes=" + value)),
				Arbitraries.of("", " ").map((value) -> mistake(P + "rules.group", "rules.group=" + value)),
				Arbitraries.of("{{ $labels.x ", "{{ $label.x }}", "{{ if true }}x", "{{ }}")
					.map((summary) -> mistake(P + "alerts.LaunchErrors.summary", "alerts.LaunchErrors.expr=up == 0",
							"alerts.LaunchErrors.severity=info", "alerts.LaunchErrors.summary=" + summary)),
				Arbitraries.of("team-name", "9lives")
					.map((key) -> mistake(P + "alerts.LaunchErrors.labels." + key, "alerts.LaunchErrors.expr=up == 0",
							"alerts.LaunchErrors.severity=info", "alerts.LaunchErrors.summary=s",
							"alerts.LaunchErrors.labels[" + key + "]=x")),
				Arbitraries.of("bad key!", "-x", "a/b/c")
					.map((key) -> mistake(P + "rules.prometheus-rule-labels[" + key + "]",
							"rules.prometheus-rule-labels[" + key + "]=x")),
				Arbitraries.of("a b", "x!")
					.map((key) -> mistake(P + "common-tags." + key, "common-tags." + key + "=x")),
				Arbitraries.of("karpenter-old", "9x")
					.map((name) -> mistake(P + "disabled-metrics[0]", "disabled-metrics=" + name)),
				Arbitraries.of("launch_duration_seconds", "launch_in_flight")
					.map((name) -> mistake(P + "metrics." + name, "operations.definitions.launch.description=Launches",
							"metrics." + name + ".type=gauge", "metrics." + name + ".help=h")),
				Arbitraries.of("zone", "node")
					.map((label) -> mistake(P + "label-allow-list.karpenter_launch_duration_seconds." + label,
							"namespace=karpenter",
							"label-allow-list.karpenter_launch_duration_seconds." + label + "=a")),
				Arbitraries.of("duration-bukets", "meter-prefix")
					.map((typo) -> mistake(P + typo, typo + "[0]=1", typo + "[1]=2")),
				Arbitraries.of("namespce", "lint.mod", "operations.tag")
					.map((typo) -> mistake(P + typo, SYSTEM_PROPERTY + typo + "=x")),
				Arbitraries.of("NAMESPCE", "LINT_MOD", "DURATION_BUKETS", "COMMON_TAGS_CLUSTER")
					.map((typo) -> mistake("CONTROLLER_OBSERVABILITY_" + typo,
							ENVIRONMENT_VARIABLE + "CONTROLLER_OBSERVABILITY_" + typo + "=x")));
		return Combinators.combine(valid, mistakes).as((neighbours, mistake) -> {
			List<String> properties = new ArrayList<>(neighbours);
			for (int i = 1; i < mistake.length; i++) {
				String assignment = mistake[i].startsWith(SYSTEM_PROPERTY)
						|| mistake[i].startsWith(ENVIRONMENT_VARIABLE)
								? mistake[i].replace(SYSTEM_PROPERTY, SYSTEM_PROPERTY + P) : P + mistake[i];
				String key = assignment.substring(0, assignment.indexOf('='));
				properties.removeIf((property) -> property.startsWith(key + "="));
				properties.add(assignment);
			}
			return new Configuration(properties, mistake[0]);
		});
	}

	private static String[] mistake(String expected, String... assignments) {
		String[] mistake = new String[assignments.length + 1];
		mistake[0] = expected;
		System.arraycopy(assignments, 0, mistake, 1, assignments.length);
		return mistake;
	}

	private static int badIndex(String buckets) {
		String[] values = buckets.split(",");
		for (int i = 0; i < values.length; i++) {
			double value = Double.parseDouble(values[i]);
			if (value <= 0 || (i > 0 && value <= Double.parseDouble(values[i - 1]))) {
				return i;
			}
		}
		return -1;
	}

	private static Map<String, Object> environment(List<String> variables) {
		Map<String, Object> environment = new LinkedHashMap<>();
		variables.forEach((variable) -> environment.put(variable.substring(0, variable.indexOf('=')),
				variable.substring(variable.indexOf('=') + 1)));
		return environment;
	}

	/**
	 * Properties with one mistake, and the property its analysis must name. A property
	 * starting with {@code -D} is a system property, one starting with {@code env:} an
	 * environment variable.
	 */
	record Configuration(List<String> properties, String expected) {

		List<String> sourced(String marker) {
			return this.properties.stream()
				.filter((property) -> marker.isEmpty()
						? !property.startsWith(SYSTEM_PROPERTY) && !property.startsWith(ENVIRONMENT_VARIABLE)
						: property.startsWith(marker))
				.map((property) -> property.substring(marker.length()))
				.toList();
		}

	}

}
