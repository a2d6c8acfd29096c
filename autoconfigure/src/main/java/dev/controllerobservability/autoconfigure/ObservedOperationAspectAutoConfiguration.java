package dev.controllerobservability.autoconfigure;

import org.aspectj.weaver.Advice;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.ObservedOperationAspect;

/**
 * Auto-configuration of the {@link ObservedOperation} aspect when AspectJ is present.
 */
@AutoConfiguration(after = ControllerObservabilityAutoConfiguration.class)
@ConditionalOnClass(Advice.class)
@ConditionalOnBean(ControllerOperations.class)
public final class ObservedOperationAspectAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ObservedOperationAspect observedOperationAspect(ControllerOperations operations, RecordingFailures failures) {
		return new ObservedOperationAspect(operations, failures);
	}

}
