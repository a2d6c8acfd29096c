package dev.controllerobservability.autoconfigure.strictness;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link InvalidObservabilityPropertyFailureAnalyzer}: the action ends with
 * where the value the binder read came from.
 */
class InvalidObservabilityPropertyFailureAnalyzerTests {

	private static final String P = "controller.observability.";

	@Test
	void namesTheEnvironmentVariableThatHidesAFile() {
		StandardEnvironment environment = LayeredEnvironment.of(Map.of(P + "namespace", "karpenter"),
				Map.of("CONTROLLER_OBSERVABILITY_NAMESPACE", ""));
		assertThat(action(environment, P + "namespace", "Set it to a name such as 'my_controller'"))
			.isEqualTo("Set it to a name such as 'my_controller' in \"CONTROLLER_OBSERVABILITY_NAMESPACE\" from "
					+ "property source \"systemEnvironment\"");
	}

	@Test
	void namesTheFileWhenNothingHidesIt() {
		StandardEnvironment environment = LayeredEnvironment.of(Map.of(P + "namespace", "Karpenter"), Map.of());
		assertThat(action(environment, P + "namespace", "Set it to a name such as 'karpenter'."))
			.isEqualTo("Set it to a name such as 'karpenter' in \"controller.observability.namespace\" from property "
					+ "source \"file\".");
	}

	@Test
	void namesTheWholeListAnEnvironmentVariableGivesForOneOfItsElements() {
		StandardEnvironment environment = LayeredEnvironment.of(
				Map.of(P + "duration-buckets[0]", "0.1", P + "duration-buckets[1]", "0.5"),
				Map.of("CONTROLLER_OBSERVABILITY_DURATION_BUCKETS", "0.5,0.1"));
		assertThat(action(environment, P + "duration-buckets[1]", "List the boundaries in ascending order"))
			.isEqualTo("List the boundaries in ascending order in \"CONTROLLER_OBSERVABILITY_DURATION_BUCKETS\" from "
					+ "property source \"systemEnvironment\"");
	}

	@Test
	void namesTheElementWhenItIsWrittenOnItsOwn() {
		StandardEnvironment environment = LayeredEnvironment
			.of(Map.of(P + "duration-buckets[0]", "0.5", P + "duration-buckets[1]", "0.1"), Map.of());
		assertThat(action(environment, P + "duration-buckets[1]", "Fix it"))
			.isEqualTo("Fix it in \"controller.observability.duration-buckets[1]\" from property source \"file\"");
	}

	@Test
	void namesWhereAMapEntryIsWrittenByItsProperties() {
		StandardEnvironment environment = LayeredEnvironment
			.of(Map.of(P + "metrics.bind_duration_seconds.type", "histogram"), Map.of());
		assertThat(action(environment, P + "metrics.bind_duration_seconds", "Rename the metric")).isEqualTo(
				"Rename the metric in \"controller.observability.metrics.bind_duration_seconds.type\" from property "
						+ "source \"file\"");
	}

	@Test
	void doesNotRepeatAnOriginTheActionNames() {
		StandardEnvironment environment = LayeredEnvironment.of(Map.of(),
				Map.of("CONTROLLER_OBSERVABILITY_NAMESPACE", "9"));
		String action = "Set \"CONTROLLER_OBSERVABILITY_NAMESPACE\" from property source \"systemEnvironment\" to 'x'";
		assertThat(action(environment, P + "namespace", action)).isEqualTo(action);
	}

	@Test
	void addsNothingWhenTheExceptionNamesItsSource() {
		StandardEnvironment environment = LayeredEnvironment.of(Map.of(),
				Map.of("CONTROLLER_OBSERVABILITY_NAMESPCE", "x"));
		InvalidObservabilityPropertyException exception = InvalidObservabilityPropertyException.inNamedSource(
				"CONTROLLER_OBSERVABILITY_NAMESPCE", "x", "no such property",
				"Correct or remove the environment variable CONTROLLER_OBSERVABILITY_NAMESPCE.");
		assertThat(new InvalidObservabilityPropertyFailureAnalyzer(environment).analyze(exception).getAction())
			.isEqualTo("Correct or remove the environment variable CONTROLLER_OBSERVABILITY_NAMESPCE.");
	}

	@Test
	void addsNothingForAPropertyNoSourceHolds() {
		StandardEnvironment environment = LayeredEnvironment.of(Map.of(), Map.of());
		assertThat(action(environment, P + "operations.definitions.bind", "Declare it")).isEqualTo("Declare it");
	}

	@Test
	void addsNothingWithoutAnEnvironment() {
		FailureAnalysis analysis = new InvalidObservabilityPropertyFailureAnalyzer(null)
			.analyze(new InvalidObservabilityPropertyException(P + "namespace", "", "not snake_case", "Fix it"));
		assertThat(analysis.getAction()).isEqualTo("Fix it");
	}

	private static String action(StandardEnvironment environment, String property, String action) {
		return new InvalidObservabilityPropertyFailureAnalyzer(environment)
			.analyze(new InvalidObservabilityPropertyException(property, "bad", "it is bad", action))
			.getAction();
	}

}
