package dev.controllerobservability.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import dev.controllerobservability.docs.StableMetricsGoldenFile;
import dev.controllerobservability.test.StableMetricsContract;
import dev.controllerobservability.autoconfigure.endpoint.ControllerObservabilityEndpointsAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;
import dev.controllerobservability.autoconfigure.rules.ControllerRulesAndLintAutoConfiguration;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The golden-file helper against a running application's {@link LiveMetrics}: a STABLE
 * metric whose labels changed since the file was written fails with a diff naming the
 * metric and the label.
 */
class StableMetricsContractTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				PrometheusMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ControllerRulesAndLintAutoConfiguration.class, ControllerObservabilityEndpointsAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class))
		.withPropertyValues("controller.observability.namespace=karpenter",
				"controller.observability.metrics.nodes_launched_total.type=counter",
				"controller.observability.metrics.nodes_launched_total.help=Number of nodes launched.",
				"controller.observability.metrics.nodes_launched_total.stability=STABLE");

	@Test
	void failsWhenAStableMetricsLabelsChanged(@TempDir Path directory) throws Exception {
		Path golden = directory.resolve("stable-metrics.yaml");
		this.contextRunner
			.withPropertyValues("controller.observability.metrics.nodes_launched_total.labels=provisioner,zone")
			.run((context) -> Files.writeString(golden, StableMetricsGoldenFile
				.render(context.getBean(LiveMetrics.class).reference().entries(), "generated")));
		this.contextRunner
			.withPropertyValues("controller.observability.metrics.nodes_launched_total.labels=provisioner,zone")
			.run((context) -> assertThatNoException()
				.isThrownBy(() -> StableMetricsContract.assertUnchanged(golden, differences(context), "refresh")));
		this.contextRunner
			.withPropertyValues("controller.observability.metrics.nodes_launched_total.labels=provisioner")
			.run((context) -> assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> StableMetricsContract.assertUnchanged(golden, differences(context), "./refresh"))
				.withMessageContaining("STABLE metric karpenter_nodes_launched_total lost label(s) [zone]")
				.withMessageContaining("refresh the golden file with:\n  ./refresh"));
	}

	private static Function<String, List<String>> differences(ApplicationContext context) {
		return (committed) -> StableMetricsGoldenFile.differences(committed,
				context.getBean(LiveMetrics.class).reference().entries());
	}

}
