package dev.controllerobservability.autoconfigure.strictness;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.analyzer.AbstractInjectionFailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

import dev.controllerobservability.autoconfigure.ControllerObservabilityProperties;

/**
 * Explains a missing bean of the starter (such as {@code ControllerOperations}) that a
 * switch turned off: {@code controller.observability.enabled=false}, or
 * {@code controller.observability.kubernetes.enabled=false} for the Kubernetes beans.
 * Spring Boot's own analysis only says no such bean exists. Ordered ahead of it.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class ObservabilitySwitchedOffFailureAnalyzer extends AbstractInjectionFailureAnalyzer<NoSuchBeanDefinitionException> {

	private static final String PACKAGE = "dev.controllerobservability";

	private final @Nullable Environment environment;

	/**
	 * Creates the analyzer.
	 * @param environment the application's, which Spring Boot passes
	 */
	ObservabilitySwitchedOffFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause,
			@Nullable String description) {
		Class<?> type = (cause.getResolvableType() != null) ? cause.getResolvableType().resolve() : null;
		if (type == null || this.environment == null || !type.getPackageName().startsWith(PACKAGE + ".")) {
			return null;
		}
		ConfigurationProperty off = switchedOff(ControllerObservabilityProperties.PREFIX + ".enabled");
		if (off == null && type.getPackageName().startsWith(PACKAGE + ".kubernetes")) {
			off = switchedOff(ControllerObservabilityProperties.PREFIX + ".kubernetes.enabled");
		}
		if (off == null) {
			return null;
		}
		String origin = (off.getOrigin() != null) ? " (in " + off.getOrigin() + ")" : "";
		return new FailureAnalysis(
				((description != null) ? description : "The application") + " required a bean of type '"
						+ type.getName() + "', but " + off.getName() + " is " + off.getValue() + origin
						+ ", which turns off the auto-configuration that provides it.",
				"Remove " + off.getName() + "=" + off.getValue() + ", or inject ObjectProvider<" + type.getSimpleName()
						+ "> and record nothing when " + "it has no bean.",
				cause);
	}

	/** The switch, as the first property source that has it sets it, when it is off. */
	private @Nullable ConfigurationProperty switchedOff(String name) {
		ConfigurationProperty property = BoundProperty.read(this.environment, ConfigurationPropertyName.of(name));
		return (property != null && Boolean.FALSE.equals(OnObservabilitySwitchCondition.asBoolean(property.getValue())))
				? property : null;
	}

}
