package dev.controllerobservability.internal.settings;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.operations.OperationDefinition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names in settings that refer to nothing yet, once the application runs.
 */
class UnresolvedReferencesTests {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final MetricCatalog catalog = MetricCatalog.of("karpenter",
			List.of(MetricDefinition.counter("nodes_launched_total").help("Nodes created.").build()));

	private final Map<String, OperationDefinition> definitions = Map.of("bind",
			new OperationDefinition(null, null, null, null));

	@Test
	void warnsAboutADisabledMetricNothingRegisteredOrDeclaredWithTheClosestName() {
		UnresolvedReferences unresolved = unresolved(List.of("karpenter_nodes_lanched_total", "karpenter_late_pods"),
				List.of());
		List<UnresolvedReferences.Warning> warnings = unresolved.find(this.registry, Set.of(), List.of());
		assertThat(warnings).containsExactly(
				new UnresolvedReferences.Warning("disabled-metrics[0]", "karpenter_nodes_lanched_total",
						"no metric of this name has been registered or declared", "karpenter_nodes_launched_total"),
				new UnresolvedReferences.Warning("disabled-metrics[1]", "karpenter_late_pods",
						"no metric of this name has been registered or declared", null));
		Gauge.builder("karpenter_late_pods", () -> 1).register(this.registry);
		assertThat(unresolved.find(this.registry, Set.of("karpenter_nodes_lanched_total"), List.of())).isEmpty();
	}

	@Test
	void warnsAboutARuleOperationNeitherDeclaredNorCalledUntilItIsCalled() {
		UnresolvedReferences unresolved = unresolved(List.of(), List.of("launch"));
		assertThat(unresolved.find(this.registry, Set.of(), List.of()))
			.containsExactly(new UnresolvedReferences.Warning("rules.operations.launch", "launch",
					"no operation of this name is declared under "
							+ "controller.observability.operations.definitions or has been called",
					null));
		Gauge.builder("karpenter_launch_in_flight", () -> 0).register(this.registry);
		assertThat(unresolved.find(this.registry, Set.of(), List.of())).isEmpty();
	}

	private UnresolvedReferences unresolved(List<String> disabledMetrics, List<String> ruleOperations) {
		SettingReferences references = new SettingReferences("karpenter", List.of(), this.definitions, ruleOperations,
				this.catalog, SettingNames.PROPERTIES);
		return new UnresolvedReferences(references, this.catalog, this.definitions, ruleOperations, disabledMetrics,
				List.of(), SettingNames.PROPERTIES);
	}

}
