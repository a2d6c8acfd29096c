package dev.controllerobservability.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import dev.controllerobservability.autoconfigure.ConfiguredApplication.Source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Every bad configuration found by trying the starter as outside users would, each in the
 * property source it was found in: a real application start fails and prints the
 * starter's failure analysis naming the property, the value, why, and the fix. The list
 * is what docs/reliability.md counts.
 */
@ExtendWith(OutputCaptureExtension.class)
class RefusedConfigurationTests {

	private static final String P = "controller.observability.";

	static List<Refused> badConfigurations() {
		return List.of(
				new Refused("duration bucket below 1 ns", Source.YAML, """
						controller.observability.duration-buckets: [0.0000000001, 0.0000000002, 1]
						""", P + "duration-buckets[0]", "1.0E-10", "rounds to 0 ns",
						"Use boundaries of at least 0.000000001 (1 ns)"),
				new Refused("operation bucket below 1 ns", Source.PROPERTIES, """
						controller.observability.operations.definitions.bind.buckets=0.0000000001,1
						""", P + "operations.definitions.bind.buckets[0]", "1.0E-10", "rounds to 0 ns",
						"Use boundaries of at least 0.000000001 (1 ns)"),
				new Refused("duration bucket beyond a long of nanoseconds", Source.COMMAND_LINE, """
						controller.observability.duration-buckets=1,1e300,1e301
						""", P + "duration-buckets[1]", "1.0E300", "about 292 years",
						"Remove it, or use a boundary such as 3600"),
				new Refused("duration buckets within one nanosecond", Source.YAML, """
						controller.observability.duration-buckets: [1.0000000001, 1.0000000002]
						""", P + "duration-buckets[1]", "1.0000000002", "the same whole nanosecond",
						"Keep boundaries at least one nanosecond apart"),
				new Refused("catalog metric named like an operation's histogram", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  operations.definitions.bind: {}
						  metrics:
						    bind_duration_seconds: {type: histogram, help: Binds.}
						""", P + "metrics.bind_duration_seconds", "bind_duration_seconds",
						"karpenter_bind_duration_seconds is the duration histogram of operation 'bind'",
						"Rename the metric"),
				new Refused("catalog metric named like the histogram of an operation with a subsystem", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  operations.definitions.renew-certificate: {subsystem: issuer}
						  metrics:
						    issuer_renew_certificate_duration_seconds: {type: histogram, help: Renewals.}
						""", P + "metrics.issuer_renew_certificate_duration_seconds",
						"issuer_renew_certificate_duration_seconds",
						"karpenter_issuer_renew_certificate_duration_seconds is the duration histogram of operation "
								+ "'renew_certificate'",
						"Rename the metric, or change the subsystem 'issuer' of operation 'renew_certificate'"),
				new Refused("two operations recorded under one name", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  operations.definitions:
						    bind: {subsystem: allocation}
						    allocation_bind: {description: Binds.}
						""", P + "operations.definitions.allocation_bind", "allocation_bind",
						"operations 'bind' and 'allocation_bind' are both recorded as "
								+ "karpenter_allocation_bind_duration_seconds",
						"Give one of them another name or a different"),
				new Refused("catalog metric named like an operation's in-flight gauge", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  rules.operations.launch.stuck.enabled: true
						  metrics:
						    launch_in_flight: {type: gauge, help: Launches.}
						""", P + "metrics.launch_in_flight", "launch_in_flight",
						"karpenter_launch_in_flight is the in-flight gauge of operation 'launch'", "Rename the metric"),
				new Refused("empty rule group", Source.YAML, """
						controller.observability.rules.group: ''
						""", P + "rules.group", "", "promtool and Prometheus reject a group without one",
						"Set a name such as 'controller.rules'"),
				new Refused("alert summary with a broken template", Source.YAML, """
						controller.observability.alerts.LaunchErrors:
						  expr: up == 0
						  severity: warning
						  summary: '{{ $labels.x '
						""", P + "alerts.LaunchErrors.summary", "{{ $labels.x ",
						"the template is not valid: the action starting at position 0 is not closed with '}}'",
						"Fix the template"),
				new Refused("alert description with an undefined variable", Source.YAML, """
						controller.observability.alerts.LaunchErrors:
						  expr: up == 0
						  severity: warning
						  summary: Launches fail
						  description: '{{ $label.provisioner }} fails'
						""", P + "alerts.LaunchErrors.description", "{{ $label.provisioner }} fails",
						"the variable $label at position 0 is not defined", "Fix the template"),
				new Refused("JVM meters claimed as controller meters", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_METERPREFIXES=jvm
						""", P + "meter-prefixes[0]", "jvm", "names framework meters (jvm_*)",
						"List only prefixes of meters your controller registers itself"),
				new Refused("HTTP meters claimed as controller meters", Source.SYSTEM_PROPERTIES, """
						controller.observability.meter-prefixes=nodes,http.server
						""", P + "meter-prefixes[1]", "http.server", "names framework meters (http_*)",
						"List only prefixes of meters your controller registers itself"),
				new Refused("PrometheusRule label key that binding would rewrite", Source.YAML, """
						controller.observability.rules.prometheus-rule-labels:
						  'bad key!': x
						""", P + "rules.prometheus-rule-labels.bad key!", "x",
						"Spring Boot drops ' ', '!' from property names outside brackets, so this binds as "
								+ "'controller.observability.rules.prometheus-rule-labels.badkey'",
						"Write the key in brackets to keep it as written, such as "
								+ "'rules.prometheus-rule-labels[bad key!]'"),
				new Refused("PrometheusRule label key that is no Kubernetes label key", Source.YAML, """
						controller.observability.rules.prometheus-rule-labels:
						  '[bad key!]': x
						""", P + "rules.prometheus-rule-labels[bad key!]", "bad key!",
						"'bad key!' is not a Kubernetes label key", "Use a key such as 'release'"),
				new Refused("PrometheusRule label key with a prefix but without brackets", Source.YAML, """
						controller.observability.rules.prometheus-rule-labels:
						  app.kubernetes.io/part-of: karpenter
						""", P + "rules.prometheus-rule-labels.app.kubernetes.io/part-of", "karpenter",
						"Spring Boot drops '/' from property names outside brackets",
						"'rules.prometheus-rule-labels[app.kubernetes.io/part-of]'"),
				new Refused("alert label key that binding would rewrite", Source.YAML, """
						controller.observability.alerts.LaunchErrors:
						  expr: up == 0
						  severity: warning
						  summary: Launches fail
						  labels: {'bad key!': x}
						""", P + "alerts.LaunchErrors.labels.bad key!", "x", "Spring Boot drops ' ', '!'",
						"'alerts.LaunchErrors.labels[bad key!]'"),
				new Refused("alert label key that is no label name", Source.PROPERTIES, """
						controller.observability.alerts.LaunchErrors.expr=up == 0
						controller.observability.alerts.LaunchErrors.severity=warning
						controller.observability.alerts.LaunchErrors.summary=Launches fail
						controller.observability.alerts.LaunchErrors.labels[team-name]=nodes
						""", P + "alerts.LaunchErrors.labels.team-name", "team-name",
						"'team-name' is not a Prometheus label name", "Rename it to something like 'team_name'"),
				new Refused("alert annotation key that is no label name", Source.DEFAULT_PROPERTIES, """
						controller.observability.alerts.LaunchErrors.expr=up == 0
						controller.observability.alerts.LaunchErrors.severity=warning
						controller.observability.alerts.LaunchErrors.summary=Launches fail
						controller.observability.alerts.LaunchErrors.annotations[9lives]=x
						""", P + "alerts.LaunchErrors.annotations.9lives", "9lives",
						"'9lives' is not a Prometheus label name", "Rename it"),
				new Refused("disabled metric that is no metric name", Source.YAML, """
						controller.observability.disabled-metrics: [karpenter-old-total]
						""", P + "disabled-metrics[0]", "karpenter-old-total",
						"a Prometheus metric name has letters, digits, '_' and ':'",
						"Use the name as the scrape shows it"),
				new Refused("disabled histogram series instead of its family", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  operations.definitions.bind: {}
						  disabled-metrics: [karpenter_bind_duration_seconds_bucket]
						""", P + "disabled-metrics[0]", "karpenter_bind_duration_seconds_bucket",
						"is a series of the histogram karpenter_bind_duration_seconds",
						"Did you mean karpenter_bind_duration_seconds?"),
				new Refused("allow-list for a label the metric does not have", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  metrics:
						    nodes_launched_total: {type: counter, help: Nodes launched., labels: [provisioner, zone]}
						  label-allow-list:
						    karpenter_nodes_launched_total: {zome: [us-east-1a]}
						""", P + "label-allow-list.karpenter_nodes_launched_total.zome", "zome",
						"karpenter_nodes_launched_total has no label 'zome'; its labels are [provisioner, zone]",
						"Did you mean 'zone'?"),
				new Refused("allow-list for an operation label that is not an operation tag", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  operations.tags: [provisioner]
						  label-allow-list:
						    karpenter_bind_duration_seconds: {zone: [a]}
						""", P + "label-allow-list.karpenter_bind_duration_seconds.zone", "zone",
						"may name its operation tags [provisioner]",
						"Add zone to controller.observability.operations.tags, or allow-list one of those"),
				new Refused("allow-list for a metric the limits never see", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  metrics:
						    nodes_launched_total: {type: counter, help: Nodes launched., labels: [zone]}
						  label-allow-list:
						    karpenter_nodes_lanched_total: {zone: [a]}
						""", P + "label-allow-list.karpenter_nodes_lanched_total", "karpenter_nodes_lanched_total",
						"is neither a declared metric nor an operation's duration histogram",
						"Did you mean karpenter_nodes_launched_total?"),
				new Refused("allow-list for a metric far from every declared one", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  metrics:
						    nodes_launched_total: {type: counter, help: Nodes launched., labels: [zone]}
						  label-allow-list:
						    karpenter_certificates: {zone: [a]}
						""", P + "label-allow-list.karpenter_certificates", "karpenter_certificates",
						"is neither a declared metric nor an operation's duration histogram",
						"histogram, such as karpenter_nodes_launched_total"),
				new Refused("misspelt map", Source.YAML, """
						controller.observability.comon-tags: {team: pki, cluster: dev}
						""", P + "comon-tags", "{cluster=dev, team=pki}",
						"the starter has no property 'comon-tags' here", "Did you mean 'common-tags'?"),
				new Refused("misspelt list in a catalog metric", Source.YAML, """
						controller.observability.metrics:
						  certificates_issued_total:
						    type: counter
						    help: Certificates issued.
						    labls: [issuer, key_type]
						""", P + "metrics.certificates_issued_total.labls", "[issuer, key_type]",
						"the starter has no property 'labls' here", "Did you mean 'labels'?"),
				new Refused("misspelt top-level list", Source.YAML, """
						controller.observability.duration-bukets: [0.1, 1]
						""", P + "duration-bukets", "[0.1, 1]", "the starter has no property 'duration-bukets' here",
						"Did you mean 'duration-buckets'?"),
				new Refused("misspelt property in an environment variable", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_NAMESPCE=x
						""", "CONTROLLER_OBSERVABILITY_NAMESPCE", "x", "the starter has no property 'namespce' here",
						"Did you mean 'namespace' (CONTROLLER_OBSERVABILITY_NAMESPACE)?"),
				new Refused("misspelt nested property in an environment variable", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_LINT_MODEE=fail
						""", "CONTROLLER_OBSERVABILITY_LINT_MODEE", "fail", "the starter has no property 'modee' here",
						"Did you mean 'mode' (CONTROLLER_OBSERVABILITY_LINT_MODE)?"),
				new Refused("map property spelt with '_' in an environment variable", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_COMMON_TAGS_CLUSTER=dev
						""", "CONTROLLER_OBSERVABILITY_COMMON_TAGS_CLUSTER", "dev",
						"reads the entries of a map property from environment variables only when the map's name is "
								+ "one word, so COMMON_TAGS binds to nothing",
						"Rename the variable to CONTROLLER_OBSERVABILITY_COMMONTAGS_CLUSTER"),
				new Refused("misspelt property in a system property", Source.SYSTEM_PROPERTIES, """
						controller.observability.namespce=x
						""", P + "namespce", "x", "the system property binds to nothing",
						"Did you mean 'namespace'? Correct or remove the system property"),
				new Refused("misspelt property in a @PropertySource", Source.PROPERTY_SOURCE, """
						controller.observability.max-label-valuse=5
						""", P + "max-label-valuse", "5", "the starter has no property 'max-label-valuse' here",
						"Did you mean 'max-label-values'?"),
				new Refused("misspelt property in default properties", Source.DEFAULT_PROPERTIES, """
						controller.observability.namespce=x
						""", P + "namespce", "x", "the starter has no property 'namespce' here",
						"Did you mean 'namespace'?"),
				new Refused("operation definition given as a text", Source.YAML, """
						controller.observability.operations.definitions.bind: allocation_controller
						""", P + "operations.definitions.bind", "allocation_controller", "it is not a single text",
						"or {} to declare the operation with defaults"),
				new Refused("metric type that does not exist", Source.YAML, """
						controller.observability.metrics:
						  nodes_launched_total: {type: timer, help: Nodes launched.}
						""", P + "metrics.nodes_launched_total.type", "timer",
						"the type is unknown: it is none of counter, gauge, histogram, summary or info",
						"Set it to one of counter, gauge, histogram, summary, info in URL [file:"),
				new Refused("stability level that does not exist in an environment variable", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_BIND_STABILITY=GA
						""", P + "operations.definitions.bind.stability", "GA",
						"the stability is unknown: it is none of INTERNAL, ALPHA, BETA or STABLE",
						"Set it to one of INTERNAL, ALPHA, BETA, STABLE in System Environment Property "
								+ "\"CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_BIND_STABILITY\""),
				new Refused("alert severity that does not exist in a system property", Source.SYSTEM_PROPERTIES, """
						controller.observability.alerts.LaunchErrors.expr=up == 0
						controller.observability.alerts.LaunchErrors.summary=Launches fail
						controller.observability.alerts.LaunchErrors.severity=page
						""", P + "alerts.LaunchErrors.severity", "page",
						"the severity is unknown: it is none of critical, warning or info",
						"Set it to one of critical, warning, info in \"controller.observability.alerts.LaunchErrors.severity\" "
								+ "from property source \"systemProperties\""),
				new Refused("operations backend that does not exist in an environment variable", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_OPERATIONS_BACKEND=influx
						""", P + "operations.backend", "influx",
						"the backend is unknown: it is none of micrometer or prometheus",
						"Set it to one of micrometer, prometheus in System Environment Property "
								+ "\"CONTROLLER_OBSERVABILITY_OPERATIONS_BACKEND\""),
				new Refused("alert reading a disabled operation's histogram", Source.YAML, """
						controller.observability:
						  namespace: karpenter
						  operations.definitions.revoke: {}
						  disabled-metrics: [karpenter_revoke_duration_seconds]
						  alerts:
						    RevokeErrors:
						      expr: rate(karpenter_revoke_duration_seconds_count[5m]) > 0
						      severity: warning
						      summary: Revokes fail
						""", P + "alerts.RevokeErrors.expr", "rate(karpenter_revoke_duration_seconds_count[5m]) > 0",
						"the expression reads karpenter_revoke_duration_seconds_count, which "
								+ "controller.observability.disabled-metrics[0] (karpenter_revoke_duration_seconds) "
								+ "turns off, so the rule could never see it",
						"Remove karpenter_revoke_duration_seconds from controller.observability.disabled-metrics, "
								+ "or stop the rule reading it"),
				new Refused("registry tag that Prometheus reserves for histograms", Source.COMMAND_LINE, """
						management.metrics.tags.le=oops
						""", "management.metrics.tags.le", "oops",
						"Prometheus reserves 'le' for the bucket bounds of histograms", "Choose another tag key"),
				new Refused("prometheus operations backend without a Prometheus registry", Source.YAML, """
						controller.observability.operations.backend: prometheus
						management.prometheus.metrics.export.enabled: false
						""", P + "operations.backend", "prometheus",
						"operation durations go straight to the Prometheus registry, but the application has no "
								+ "single PrometheusRegistry bean",
						"Set management.prometheus.metrics.export.enabled=true in URL [file:"),
				new Refused("prometheus operations backend with every registry turned off by default",
						Source.PROPERTIES, """
								controller.observability.operations.backend=prometheus
								management.defaults.metrics.export.enabled=false
								""", P + "operations.backend", "prometheus",
						"the application has no single PrometheusRegistry bean",
						"Set management.prometheus.metrics.export.enabled=true: "
								+ "management.defaults.metrics.export.enabled=false in URL [file:"),
				new Refused("operation key with '-' spelt as one word in an environment variable", Source.YAML, """
						controller.observability.operations.definitions:
						  issue-certificate: {subsystem: certmanager}
						""",
						Map.of("CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS", "0.1,0.5"),
						"CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS", "0.1,0.5",
						"environment variables cannot spell map keys containing '-' or '_', so ISSUECERTIFICATE "
								+ "declares a separate entry 'issuecertificate' next to 'issue-certificate' (in URL [file:",
						"set the key as written in application.yaml, application.properties or SPRING_APPLICATION_JSON "
								+ "(controller.observability.operations.definitions.issue-certificate.buckets), or pass "
								+ "-Dcontroller.observability.operations.definitions.issue-certificate.buckets=0.1,0.5"),
				new Refused("catalog metric key with '_' spelt as one word in an environment variable", Source.YAML, """
						controller.observability.metrics:
						  certificates_expiring: {type: gauge, help: Certificates close to expiry.}
						""", Map.of("CONTROLLER_OBSERVABILITY_METRICS_CERTIFICATESEXPIRING_STABILITY", "STABLE"),
						"CONTROLLER_OBSERVABILITY_METRICS_CERTIFICATESEXPIRING_STABILITY", "STABLE",
						"so CERTIFICATESEXPIRING declares a separate entry 'certificatesexpiring' next to "
								+ "'certificates_expiring'",
						"(controller.observability.metrics.certificates_expiring.stability), or pass "
								+ "-Dcontroller.observability.metrics.certificates_expiring.stability=STABLE"),
				new Refused("empty namespace in an environment variable over a valid file", Source.YAML, """
						controller.observability.namespace: karpenter
						""", Map.of("CONTROLLER_OBSERVABILITY_NAMESPACE", ""), P + "namespace", "",
						"a namespace must be a snake_case Prometheus name",
						"Set it to a name such as 'my_controller' in System Environment Property "
								+ "\"CONTROLLER_OBSERVABILITY_NAMESPACE\""),
				new Refused("empty common tag value in an environment variable", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_COMMONTAGS_CLUSTER=
						""", P + "common-tags.cluster", "", "a tag value must not be empty",
						"Give the tag a value, or remove it in System Environment Property "
								+ "\"CONTROLLER_OBSERVABILITY_COMMONTAGS_CLUSTER\""),
				new Refused("empty namespace in a system property", Source.SYSTEM_PROPERTIES, """
						controller.observability.namespace=
						""", P + "namespace", "", "a namespace must be a snake_case Prometheus name",
						"Set it to a name such as 'my_controller' in \"controller.observability.namespace\" "
								+ "from property source \"systemProperties\""),
				new Refused("a word in the buckets of a metric named with underscores", Source.PROPERTIES, """
						controller.observability.metrics.snapshot_size_bytes.type=histogram
						controller.observability.metrics.snapshot_size_bytes.help=Snapshot sizes.
						controller.observability.metrics.snapshot_size_bytes.buckets=1,x
						""", P + "metrics.snapshot_size_bytes.buckets", "1,x", "cannot be read as a list of numbers",
						"Set it to a list of numbers, such as [0.1, 1, 10] in URL [file:"),
				new Refused("a word among duration buckets", Source.YAML, """
						controller.observability.duration-buckets: [1, fast]
						""", P + "duration-buckets[1]", "fast", "the value cannot be read as a number",
						"Set it to a number in URL [file:"),
				new Refused("a metric key in brackets that is no metric name", Source.YAML, """
						controller.observability.metrics.[snap:age_seconds]: {type: gauge, help: Snapshot age.}
						""", P + "metrics.snap:age_seconds", "snap:age_seconds", "a metric name must be snake_case",
						"Use a name such as 'snap_age_seconds' in URL [file:"),
				new Refused("an alert without a summary", Source.YAML, """
						controller.observability.alerts.BackupStuck: {expr: "vector(1) > 0", severity: warning}
						""", P + "alerts.BackupStuck.summary", null, "every alert needs a summary",
						"fail' in URL [file:"),
				new Refused("a misspelt false for the starter's switch", Source.COMMAND_LINE, """
						controller.observability.enabled=flase
						""", P + "enabled", "flase", "a switch must be true or false",
						"Set it to true or false in \"controller.observability.enabled\" from property source "
								+ "\"commandLineArgs\""),
				new Refused("a word for the Kubernetes switch", Source.YAML, """
						controller.observability.kubernetes.enabled: disabled
						""", P + "kubernetes.enabled", "disabled", "a switch must be true or false",
						"Set it to true or false in URL [file:"),
				new Refused("an unquoted YAML number for the starter's switch", Source.YAML, """
						controller.observability.enabled: 0
						""", P + "enabled", "0", "an unquoted number in YAML or JSON is a number",
						"Set it to true or false in URL [file:"),
				new Refused("an empty switch in an environment variable", Source.ENVIRONMENT, """
						CONTROLLER_OBSERVABILITY_ENABLED=
						""", P + "enabled", "", "a switch must be true or false",
						"Set it to true or false in System Environment Property \"CONTROLLER_OBSERVABILITY_ENABLED\""),
				new Refused("duration buckets out of order in a @PropertySource", Source.PROPERTY_SOURCE, """
						controller.observability.duration-buckets=0.5,0.1
						""", P + "duration-buckets[1]", "0.1", "bucket boundaries must be strictly increasing",
						"List the boundaries in ascending order: [0.1, 0.5] in "
								+ "\"controller.observability.duration-buckets\" from property source \"URL [file:"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("badConfigurations")
	void stopsStartUpWithAFailureAnalysis(Refused bad, CapturedOutput output) {
		assertThatException().isThrownBy(() -> bad.start().close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Property: " + bad.property() + System.lineSeparator())
			.contains("Value: " + ((bad.value() != null) ? "\"" + bad.value() + "\"" : "(not set)")
					+ System.lineSeparator())
			.contains(bad.reason())
			.contains(bad.action());
	}

	@Test
	void blamesAnEmptyEnvironmentVariableNotTheFileItHides(CapturedOutput output) {
		ConfiguredApplication.Layered layered = new ConfiguredApplication.Layered("""
				controller.observability.operations.backend: prometheus
				""", Map.of("CONTROLLER_OBSERVABILITY_OPERATIONS_BACKEND", ""));
		assertThatException().isThrownBy(() -> layered.start().close());
		assertThat(output).contains("Property: controller.observability.operations.backend" + System.lineSeparator())
			.contains("Reason: the empty value in System Environment Property "
					+ "\"CONTROLLER_OBSERVABILITY_OPERATIONS_BACKEND\" takes precedence over \"prometheus\" in URL [file:")
			.contains("Remove the empty value in System Environment Property "
					+ "\"CONTROLLER_OBSERVABILITY_OPERATIONS_BACKEND\", or give it a value")
			.doesNotContain("has no property");
	}

	@Test
	void refusesAVariableSpellingAsOneWordAnOperationDeclaredWithoutSettings(CapturedOutput output) {
		ConfiguredApplication.Layered layered = new ConfiguredApplication.Layered("""
				controller.observability:
				  namespace: certmanager
				  operations.definitions:
				    issue-certificate: {}
				""", Map.of("CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS", "0.1,0.5"));
		assertThatException().isThrownBy(() -> layered.start().close());
		assertThat(output)
			.contains("Property: CONTROLLER_OBSERVABILITY_OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS"
					+ System.lineSeparator())
			.containsPattern("so ISSUECERTIFICATE declares a separate entry 'issuecertificate' next to "
					+ "'issue-certificate' \\(in [^)]+\\.yaml] - 4:5\\), and Spring Boot applies the variable to both")
			.contains("-Dcontroller.observability.operations.definitions.issue-certificate.buckets=0.1,0.5");
	}

	@Test
	void reliabilityDocsCountEveryCase() throws IOException {
		String reliability = Files.readString(Path.of("..", "docs", "reliability.md"));
		Matcher count = Pattern.compile("bad configurations refused: (\\d+) of (\\d+)").matcher(reliability);
		assertThat(count.find()).as("docs/reliability.md states the count").isTrue();
		int cases = badConfigurations().size();
		assertThat(Stream.of(count.group(1), count.group(2)).map(Integer::valueOf)).containsOnly(cases);
	}

	/**
	 * A configuration that must not start.
	 *
	 * @param title what is wrong
	 * @param source where it is given
	 * @param content the configuration
	 * @param variables environment variables over a YAML {@code content}, which take
	 * precedence over it
	 * @param property the property the analysis names
	 * @param value the value it shows
	 * @param reason part of the reason
	 * @param action part of the action
	 */
	record Refused(String title, Source source, String content, Map<String, String> variables, String property,
			String value, String reason, String action) {

		Refused(String title, Source source, String content, String property, String value, String reason,
				String action) {
			this(title, source, content, Map.of(), property, value, reason, action);
		}

		ConfigurableApplicationContext start() {
			return this.variables.isEmpty() ? ConfiguredApplication.start(this.source, this.content)
					: new ConfiguredApplication.Layered(this.content, this.variables).start();
		}

		@Override
		public String toString() {
			return this.title + " (" + this.source + (this.variables.isEmpty() ? "" : " under ENVIRONMENT") + ")";
		}

	}

}
