package dev.controllerobservability.autoconfigure.operations;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code @ObservedOperation} advisor is infrastructure: creating it early, as the
 * proxy creator does, makes Spring log no warning about post-processing in the
 * application's start-up.
 */
@ExtendWith(OutputCaptureExtension.class)
class ObservedOperationAdvisorStartupTests {

	@Test
	void startsWithoutAWarningAboutTheAdvisor(CapturedOutput output) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--controller.observability.namespace=karpenter",
				"--controller.observability.lint.mode=off")) {
			assertThat(context.getBeansOfType(ObservedOperationAdvisor.class)).hasSize(1);
		}
		assertThat(output.getOut()).doesNotContain("observedOperationAdvisor")
			.doesNotContain("not eligible for getting processed by all BeanPostProcessors");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
