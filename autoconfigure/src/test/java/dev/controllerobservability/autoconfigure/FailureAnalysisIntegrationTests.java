package dev.controllerobservability.autoconfigure;

import java.time.Duration;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
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
				"Property: controller.observability.operations.definitions.bind.bukets", "Did you mean 'buckets'?");
	}

	@Test
	void printsTheAnalysisOfAValueOfTheWrongType(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("--controller.observability.max-label-values=many"));
		assertThat(output).contains("APPLICATION FAILED TO START",
				"Property: controller.observability.max-label-values", "Value: \"many\"",
				"Set it to a whole number, such as 200 in \"controller.observability.max-label-values\" from property "
						+ "source \"commandLineArgs\".");
	}

	@Test
	void stopsOnLintFindingsInFailMode(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start(BadMetrics.class, "--controller.observability.namespace=karpenter",
				"--controller.observability.lint.mode=fail"));
		assertThat(output).contains("APPLICATION FAILED TO START",
				"Controller metrics have lint findings, and controller.observability.lint.mode is fail:",
				"    karpenter_wait_ms metric names should not contain abbreviated units",
				"    karpenter_wait_ms label \"pod_uid\" suggests an unbounded value; allow it with "
						+ "controller.observability.lint.allowed-labels if it is bounded",
				"or set controller.observability.lint.mode=warn.");
	}

	@Test
	void stopsOnAnAlertReadingAMetricThatDoesNotExist(CapturedOutput output) {
		assertThatException().isThrownBy(() -> start("--controller.observability.namespace=karpenter",
				"--controller.observability.operations.definitions.launch.subsystem=cloudprovider",
				"--controller.observability.alerts.LaunchErrors.expr=rate(karpenter_cloudprovider_lunch_duration_seconds_count[5m]) > 1",
				"--controller.observability.alerts.LaunchErrors.severity=warning",
				"--controller.observability.alerts.LaunchErrors.summary=Launches fail"));
		assertThat(output).contains("APPLICATION FAILED TO START",
				"Property: controller.observability.alerts.LaunchErrors.expr",
				"the expression reads karpenter_cloudprovider_lunch_duration_seconds_count, which the application "
						+ "neither exposes nor declares",
				"Did you mean karpenter_cloudprovider_launch_duration_seconds_count?");
	}

	@Test
	void onlyWarnsOnLintFindingsByDefault(CapturedOutput output) {
		start(BadMetrics.class, "--controller.observability.namespace=karpenter");
		// Warnings do not hold up start-up: they are logged from the application's task
		// executor.
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(output)
				.contains("Metric lint: karpenter_wait_ms metric names should not contain abbreviated units"));
		assertThat(output).doesNotContain("APPLICATION FAILED TO START");
	}

	private static void start(String... args) {
		start(App.class, args);
	}

	private static void start(Class<?> source, String... args) {
		SpringApplication application = new SpringApplication(App.class, source);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args).close();
	}

	/** A meter that breaks two lint rules. */
	@Configuration(proxyBeanMethods = false)
	static class BadMetrics {

		@Bean
		MeterBinder badMeter() {
			return (registry) -> Gauge.builder("karpenter.wait_ms", () -> 1)
				.description("Wait.")
				.tag("pod_uid", "u1")
				.register(registry);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
