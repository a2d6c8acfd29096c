package dev.controllerobservability.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;
import dev.controllerobservability.autoconfigure.strictness.InvalidObservabilityPropertyException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code max-series-per-metric} and {@code operations.max-operations} reach the limiter
 * and the operations, and a value below 1 stops start-up naming the property.
 */
class CardinalityPropertiesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.operations.tags=provisioner");

	@Test
	void defaultsToAThousandSeriesPerMetricAndAHundredOperations() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(CardinalityLimiter.class).maxSeriesPerMetric()).isEqualTo(1000);
			assertThat(context.getBean(ControllerObservabilitySettings.class).core().maxOperations()).isEqualTo(100);
		});
	}

	@Test
	void appliesTheConfiguredSeriesAndOperationCaps() {
		this.contextRunner
			.withPropertyValues("controller.observability.max-series-per-metric=2",
					"controller.observability.operations.max-operations=1",
					"controller.observability.operations.definitions.bind.subsystem=allocation")
			.run((context) -> {
				ControllerOperations operations = context.getBean(ControllerOperations.class);
				// Declared operations are recorded and do not count, whenever they are
				// called.
				operations.observe("bind", Tags.of("provisioner", "a"), () -> "bound");
				for (String provisioner : new String[] { "a", "b", "c" }) {
					operations.observe("launch", Tags.of("provisioner", provisioner), () -> "launched");
				}
				// "pack" is the second undeclared operation: one too many.
				assertThat(operations.observe("pack", Tags.of("provisioner", "a"), () -> "packed")).isEqualTo("packed");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find("controller.launch.in_flight").gauges())
					.extracting((gauge) -> gauge.getId().getTag("provisioner"))
					.containsExactlyInAnyOrder("a", "b", "overflow");
				assertThat(registry.find("controller.allocation.bind.duration").timer()).isNotNull();
				assertThat(registry.find("controller.pack.duration").timer()).isNull();
				assertThat(registry.get("controller.observability.errors").counter().count()).isEqualTo(1);
			});
	}

	@Test
	void refusesCapsBelowOne() {
		this.contextRunner.withPropertyValues("controller.observability.max-series-per-metric=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidObservabilityPropertyException.class)
				.hasMessageContaining("controller.observability.max-series-per-metric");
		});
		this.contextRunner.withPropertyValues("controller.observability.operations.max-operations=0")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("controller.observability.operations.max-operations"));
	}

}
