package dev.controllerobservability.autoconfigure;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A meter filter that throws for every controller meter, from start-up on: the
 * application starts, operations and catalog metrics run the caller's work, and the
 * failures are counted.
 */
class BrokenMeterFilterStartupTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter",
				"controller.observability.operations.tags=provisioner",
				"controller.observability.metrics.nodes_launched_total.type=counter",
				"controller.observability.metrics.nodes_launched_total.help=Number of nodes launched.",
				"controller.observability.metrics.nodes_launched_total.labels=provisioner",
				"controller.observability.metrics.nodes_launched_total.label-values.provisioner=default,gpu")
		.withBean("brokenFilter", MeterFilter.class, () -> new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if (id.getName().startsWith("karpenter")) {
					throw new IllegalStateException("broken filter");
				}
				return id;
			}
		});

	@Test
	void startsAndRunsTheCallersWork() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			AtomicInteger runs = new AtomicInteger();
			ControllerOperations operations = context.getBean(ControllerOperations.class);
			assertThat(operations.observe("bind", Tags.of("provisioner", "gpu"), runs::incrementAndGet)).isEqualTo(1);
			context.getBean(ControllerMetrics.class).counter("nodes_launched_total", "provisioner", "gpu").increment();
			assertThat(runs).hasValue(1);
			RecordingFailures failures = context.getBean(RecordingFailures.class);
			// Start-up: the two pre-set catalog series. The call: its direct meters, then
			// the
			// observation path at start and stop. The counter: one.
			assertThat(failures.count()).isEqualTo(6);
			assertThat(context.getBean(MeterRegistry.class).find("karpenter.observability.errors").meter()).isNull();
		});
	}

}
