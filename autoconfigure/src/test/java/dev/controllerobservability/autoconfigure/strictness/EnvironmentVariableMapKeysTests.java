package dev.controllerobservability.autoconfigure.strictness;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.StandardEnvironment;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.OperationDefinitionProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link EnvironmentVariableMapKeys}, through {@link PropertySourceNames}: an
 * environment variable that spells as one word a map key written elsewhere with '-', '_'
 * or upper-case letters is refused, under any map; a one-word key without such a twin is
 * not.
 */
class EnvironmentVariableMapKeysTests {

	private static final String P = "controller.observability.";

	private static final String V = "CONTROLLER_OBSERVABILITY_";

	@Test
	void springBootDeclaresBothKeysAndAppliesTheVariableToBoth() {
		StandardEnvironment environment = LayeredEnvironment
			.of(Map.of(P + "operations.definitions.issue-certificate.subsystem", "certmanager",
					P + "metrics.certificates_expiring.type", "gauge", P + "alerts.LaunchErrors.severity", "warning"),
					Map.of(V + "OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS", "0.1,0.5",
							V + "METRICS_CERTIFICATESEXPIRING_STABILITY", "STABLE", V + "ALERTS_LAUNCHERRORS_SUMMARY",
							"Launches fail"));
		ControllerObservabilityProperties properties = Binder.get(environment)
			.bind(ControllerObservabilityProperties.PREFIX, ControllerObservabilityProperties.class)
			.get();
		Map<String, OperationDefinitionProperties> definitions = properties.operations().definitions();
		assertThat(definitions).containsOnlyKeys("issue-certificate", "issuecertificate");
		assertThat(definitions.values()).allSatisfy((definition) -> {
			assertThat(definition.buckets()).containsExactly(0.1, 0.5);
			assertThat(definition.subsystem()).isEqualTo("certmanager");
		});
		assertThat(properties.metrics()).containsOnlyKeys("certificates_expiring", "certificatesexpiring");
		assertThat(properties.metrics().values())
			.allSatisfy((metric) -> assertThat(metric.stability()).hasToString("STABLE"));
		assertThat(properties.alerts()).containsOnlyKeys("LaunchErrors", "launcherrors");
	}

	@Test
	void refusesAnOperationKeyWithADash() {
		assertRefused(Map.of(P + "operations.definitions.issue-certificate.subsystem", "certmanager"),
				V + "OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS", "0.1,0.5",
				"environment variables cannot spell map keys containing '-' or '_', so ISSUECERTIFICATE declares a "
						+ "separate entry 'issuecertificate' next to 'issue-certificate' (in "
						+ "\"controller.observability.operations.definitions.issue-certificate.subsystem\" from property "
						+ "source \"file\"), and Spring Boot applies the variable to both",
				"Remove the environment variable " + V + "OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS and set the "
						+ "key as written in application.yaml, application.properties or SPRING_APPLICATION_JSON (" + P
						+ "operations.definitions.issue-certificate.buckets), or pass -D" + P
						+ "operations.definitions.issue-certificate.buckets=0.1,0.5");
	}

	@Test
	void refusesAKeyOfAMapOfMaps() {
		assertRefused(Map.of(P + "label-allow-list.karpenter_nodes_launched_total.zone[0]", "a"),
				V + "LABELALLOWLIST_KARPENTERNODESLAUNCHEDTOTAL_ZONE", "b",
				"so KARPENTERNODESLAUNCHEDTOTAL declares a separate entry 'karpenternodeslaunchedtotal' next to "
						+ "'karpenter_nodes_launched_total'",
				"(" + P + "label-allow-list.karpenter_nodes_launched_total.zone)");
	}

	@Test
	void refusesAKeyOfAMapOfValues() {
		assertRefused(Map.of(P + "common-tags.my_cluster", "a"), V + "COMMONTAGS_MYCLUSTER", "b",
				"so MYCLUSTER declares a separate entry 'mycluster' next to 'my_cluster'",
				"pass -D" + P + "common-tags.my_cluster=b");
	}

	@Test
	void refusesAKeyWithUpperCaseLetters() {
		assertRefused(Map.of(P + "alerts.LaunchErrors.severity", "warning"), V + "ALERTS_LAUNCHERRORS_SUMMARY",
				"Launches fail",
				"environment variables cannot spell map keys containing upper-case letters, so LAUNCHERRORS "
						+ "declares a separate entry 'launcherrors' next to 'LaunchErrors'",
				"(" + P + "alerts.LaunchErrors.summary)");
	}

	@Test
	void refusesAKeyBelowAnotherKey() {
		assertRefused(Map.of(P + "alerts.launcherrors.labels.team_name", "nodes"),
				V + "ALERTS_LAUNCHERRORS_LABELS_TEAMNAME", "pods",
				"so TEAMNAME declares a separate entry 'teamname' next to 'team_name'",
				"(" + P + "alerts.launcherrors.labels.team_name)");
	}

	@Test
	void acceptsAOneWordKeyWithoutATwin() {
		assertThatNoException().isThrownBy(() -> ConfigurationStrictness.check(LayeredEnvironment.of(
				Map.of(P + "operations.definitions.issue-certificate.subsystem", "certmanager",
						P + "metrics.reconciles_total.type", "counter"),
				Map.of(V + "OPERATIONS_DEFINITIONS_RECONCILE_BUCKETS", "0.1,0.5",
						V + "OPERATIONS_DEFINITIONS_ISSUECERTIFICATES_BUCKETS", "1",
						V + "LABELALLOWLIST_ISSUECERTIFICATE_ZONE", "a"))));
	}

	@Test
	void acceptsAOneWordKeyWrittenAsOneWordElsewhere() {
		assertThatNoException().isThrownBy(() -> ConfigurationStrictness.check(LayeredEnvironment.of(
				Map.of(P + "operations.definitions.issuecertificate.subsystem", "certmanager",
						P + "operations.definitions.issue-certificate.subsystem", "certmanager"),
				Map.of(V + "OPERATIONS_DEFINITIONS_ISSUECERTIFICATE_BUCKETS", "0.1,0.5"))));
	}

	private static void assertRefused(Map<String, Object> file, String variable, String value, String reason,
			String action) {
		assertThatExceptionOfType(InvalidObservabilityPropertyException.class)
			.isThrownBy(() -> ConfigurationStrictness.check(LayeredEnvironment.of(file, Map.of(variable, value))))
			.satisfies((exception) -> {
				assertThat(exception.getProperty()).isEqualTo(variable);
				assertThat(exception.getValue()).isEqualTo(value);
				assertThat(exception.getReason()).contains(reason);
				assertThat(exception.getAction()).contains(action);
				assertThat(exception.isOriginNamed()).isTrue();
			});
	}

}
