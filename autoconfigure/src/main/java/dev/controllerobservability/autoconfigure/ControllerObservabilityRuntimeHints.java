package dev.controllerobservability.autoconfigure;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

import dev.controllerobservability.autoconfigure.endpoint.ControllerMetricsEndpoint.ControllerMetricsDescriptor;
import dev.controllerobservability.autoconfigure.endpoint.ControllerMetricsLintEndpoint.LintFindings;
import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.OperationTag;
import dev.controllerobservability.rules.RuleSet;

/**
 * The reflection the starter needs in a GraalVM native image, registered when Spring AOT
 * processes an application:
 * <ul>
 * <li>binding of {@code controller.observability.*} onto
 * {@link ControllerObservabilityProperties} and its nested types;</li>
 * <li>Jackson serialization of what the {@code controllermetrics},
 * {@code controllermetricslint} and {@code controllerrules} endpoints return;</li>
 * <li>the annotations the {@code @ObservedOperation} advisor and its aspect read from the
 * advised methods (the aspect itself is called directly, not reflectively).</li>
 * </ul>
 */
class ControllerObservabilityRuntimeHints implements RuntimeHintsRegistrar {

	private static final String ASPECTJ_ADVICE = "org.aspectj.weaver.Advice";

	private final BindingReflectionHintsRegistrar bindingHints = new BindingReflectionHintsRegistrar();

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		BindableRuntimeHintsRegistrar.forTypes(ControllerObservabilityProperties.class)
			.registerHints(hints, classLoader);
		this.bindingHints.registerReflectionHints(hints.reflection(), ControllerMetricsDescriptor.class,
				LintFindings.class, RuleSet.class);
		// The advisor is configured only with AspectJ present; see the
		// auto-configuration.
		if (ClassUtils.isPresent(ASPECTJ_ADVICE, classLoader)) {
			hints.reflection()
				.registerType(ObservedOperation.class, MemberCategory.INVOKE_PUBLIC_METHODS)
				.registerType(OperationTag.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
	}

}
