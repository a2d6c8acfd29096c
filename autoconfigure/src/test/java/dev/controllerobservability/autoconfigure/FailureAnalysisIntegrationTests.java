package dev.controllerobservability.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A real application start with bad configuration prints the starter's failure analysis,
 * not a stack trace alone: the analyzers are registered where Spring Boot finds them.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailureAnalysisIntegrationTests {

	@Test
	void printsTheAnalysisOfAnInvalidValue(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("--controller.observability.duration-buckets=1,0.5"));
		assertThat(output).contains("APPLICATION FAILED TO START",
				"Property: controller.observability.duration-buckets[1]", "Value: \"0.5\"",
				"strictly increasing, but 0.5 follows 1.0", "List the boundaries in ascending order: [0.5, 1.0]");
	}

	@Test
	void printsTheAnalysisOfAnUnknownProperty(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> start("--controller.observability.operations.definitions.bind.bukets=1"));
		assertThat(output).contains("APPLICATION FAILED TO START",
				"Property: controller.observability.operations.definitions.bind.bukets",
				"Did you mean 'buckets'?");
	}

	private static void start(String... args) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args).close();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
