package dev.controllerobservability.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.controllerobservability.autoconfigure.ConfiguredApplication.Source;
import dev.controllerobservability.kubernetes.operator.OperatorObservability;
import dev.controllerobservability.operations.ControllerOperations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * An application that needs a bean of the starter, started with the switch that turns it
 * off: the failure analysis names the switch and where it was set.
 */
@ExtendWith(OutputCaptureExtension.class)
class SwitchedOffStarterTests {

	@Test
	void namesTheSwitchThatTurnedOffControllerOperations(CapturedOutput output) {
		assertThatException().isThrownBy(() -> ConfiguredApplication
			.start(Source.YAML, "controller.observability.enabled: false\n", NeedsOperations.class)
			.close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("required a bean of type 'dev.controllerobservability.operations.ControllerOperations', "
					+ "but controller.observability.enabled is false (in URL [file:")
			.contains("which turns off the auto-configuration that provides it")
			.contains("Remove controller.observability.enabled=false, or inject ObjectProvider<ControllerOperations>");
	}

	@Test
	void namesTheKubernetesSwitchThatTurnedOffOperatorObservability(CapturedOutput output) {
		assertThatException().isThrownBy(() -> ConfiguredApplication
			.start(Source.COMMAND_LINE, "controller.observability.kubernetes.enabled=false\n", NeedsOperator.class)
			.close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains(
					"required a bean of type 'dev.controllerobservability.kubernetes.operator.OperatorObservability', "
							+ "but controller.observability.kubernetes.enabled is false (in \"controller.observability."
							+ "kubernetes.enabled\" from property source \"commandLineArgs\")")
			.contains("Remove controller.observability.kubernetes.enabled=false");
	}

	@Test
	void readsTheSwitchAsTheBinderReadsABoolean(CapturedOutput output) {
		assertThatException().isThrownBy(() -> ConfiguredApplication
			.start(Source.PROPERTIES, "controller.observability.enabled=OFF\n", NeedsOperations.class)
			.close());
		assertThat(output).contains("but controller.observability.enabled is OFF (in URL [file:")
			.contains("Remove controller.observability.enabled=OFF");
	}

	@ParameterizedTest
	@CsvSource({ "YAML, controller.observability.enabled: '1'", "YAML, controller.observability.enabled: yes",
			"PROPERTIES, controller.observability.enabled=On", "COMMAND_LINE, controller.observability.enabled=1",
			"ENVIRONMENT, CONTROLLER_OBSERVABILITY_ENABLED=TRUE",
			"PROPERTIES, controller.observability.enabled=${observability.switch:true}" })
	void startsWithTheSwitchOnInAnySpellingOfTrue(Source source, String line) {
		try (ConfigurableApplicationContext context = ConfiguredApplication.start(source, line + "\n",
				NeedsOperations.class)) {
			assertThat(context.getBean(ControllerOperations.class)).isNotNull();
		}
	}

	@Test
	void leavesOtherMissingBeansToSpringBoot(CapturedOutput output) {
		assertThatException().isThrownBy(() -> ConfiguredApplication
			.start(Source.YAML, "controller.observability.namespace: karpenter\n", NeedsMissingBean.class)
			.close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("required a bean of type 'java.lang.Runnable' that could not be found")
			.doesNotContain("turns off the auto-configuration");
	}

	@Configuration(proxyBeanMethods = false)
	static class NeedsOperations {

		@Bean
		Object reconciler(ControllerOperations operations) {
			return List.of(operations);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NeedsOperator {

		@Bean
		Object reconciler(OperatorObservability observability) {
			return observability;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NeedsMissingBean {

		@Bean
		Object reconciler(Runnable missing) {
			return missing;
		}

	}

}
