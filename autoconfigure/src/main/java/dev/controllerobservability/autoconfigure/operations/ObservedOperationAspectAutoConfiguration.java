package dev.controllerobservability.autoconfigure.operations;

import org.aspectj.weaver.Advice;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.ObservedOperationAspect;
import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;

/**
 * Auto-configuration of the {@link ObservedOperation} aspect when AspectJ is present,
 * applied through an {@link ObservedOperationAdvisor} unless the application defines an
 * {@link ObservedOperationAspect} bean of its own.
 */
@AutoConfiguration(after = ControllerObservabilityAutoConfiguration.class)
@ConditionalOnClass(Advice.class)
@ConditionalOnBean(ControllerOperations.class)
public final class ObservedOperationAspectAutoConfiguration {

	// Static, and the operations looked up on the first advised call: the proxy creator
	// collects advisors before most beans exist.
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(ObservedOperationAspect.class)
	static ObservedOperationAdvisor observedOperationAdvisor(ObjectProvider<ControllerOperations> operations,
			ObjectProvider<RecordingFailures> failures) {
		return new ObservedOperationAdvisor(
				() -> new ObservedOperationAspect(operations.getObject(), failures.getObject()));
	}

}
