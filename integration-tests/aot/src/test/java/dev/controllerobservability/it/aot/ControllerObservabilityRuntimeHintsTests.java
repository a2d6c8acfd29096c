package dev.controllerobservability.it.aot;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.controllerobservability.autoconfigure.endpoint.ControllerMetricsEndpoint.ControllerMetricsDescriptor;
import dev.controllerobservability.autoconfigure.endpoint.ControllerMetricsLintEndpoint.LintFindings;
import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.lint.LintFinding;
import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.ObservedOperationAspect;
import dev.controllerobservability.operations.OperationTag;
import dev.controllerobservability.rules.AlertRule;
import dev.controllerobservability.rules.RecordingRule;
import dev.controllerobservability.rules.RuleSet;
import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;
import dev.controllerobservability.autoconfigure.OperationsProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runtime hints the starter registers through {@code META-INF/spring/aot.factories}
 * cover its own reflection: property binding, the endpoints' JSON and the aspect.
 */
class ControllerObservabilityRuntimeHintsTests {

	private final RuntimeHints hints = starterHints();

	@Test
	void bindsTheStartersProperties() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection().onType(ControllerObservabilityProperties.class))
			.accepts(this.hints);
		// The properties are records, bound through their constructors.
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(ControllerObservabilityProperties.class.getDeclaredConstructors()[0]))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(OperationsProperties.class.getDeclaredConstructors()[0])).accepts(this.hints);
	}

	@Test
	void serializesWhatTheEndpointsReturn() throws Exception {
		for (Class<?> type : List.of(ControllerMetricsDescriptor.class, ReferenceEntry.class, LintFindings.class,
				LintFinding.class, RuleSet.class, AlertRule.class, RecordingRule.class)) {
			assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getName()).accepts(this.hints);
		}
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ControllerMetricsDescriptor.class.getMethod("metrics"))).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(RuleSet.class.getMethod("alerts")))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LintFinding.class.getMethod("text")))
			.accepts(this.hints);
	}

	@Test
	void readsTheAnnotationsOfAdvisedMethods() throws Exception {
		// The advisor calls the aspect directly: no reflection on the aspect itself.
		assertThat(RuntimeHintsPredicates.reflection().onType(ObservedOperationAspect.class)).rejects(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ObservedOperation.class.getMethod("value")))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OperationTag.class.getMethod("value")))
			.accepts(this.hints);
	}

	private static RuntimeHints starterHints() {
		RuntimeHints hints = new RuntimeHints();
		ClassLoader classLoader = ControllerObservabilityRuntimeHintsTests.class.getClassLoader();
		List<RuntimeHintsRegistrar> registrars = SpringFactoriesLoader
			.forResourceLocation("META-INF/spring/aot.factories", classLoader)
			.load(RuntimeHintsRegistrar.class);
		registrars.stream()
			.filter((registrar) -> registrar.getClass().getPackageName().startsWith("dev.controllerobservability"))
			.forEach((registrar) -> registrar.registerHints(hints, classLoader));
		return hints;
	}

}
