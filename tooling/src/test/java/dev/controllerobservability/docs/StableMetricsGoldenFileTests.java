package dev.controllerobservability.docs;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.docs.ReferenceEntry;
import dev.controllerobservability.stability.StabilityLevel;

import static org.assertj.core.api.Assertions.assertThat;

class StableMetricsGoldenFileTests {

	private static final ReferenceEntry STABLE = entry("karpenter_nodes_launched_total", StabilityLevel.STABLE,
			List.of("provisioner", "zone"), List.of());

	private static final ReferenceEntry BETA = entry("karpenter_packing_seconds", StabilityLevel.BETA,
			List.of("provisioner"), List.of(0.1, 1.0));

	private static final ReferenceEntry ALPHA = entry("karpenter_pending_pods", StabilityLevel.ALPHA,
			List.of("provisioner"), List.of());

	private final String golden = StableMetricsGoldenFile.render(List.of(ALPHA, STABLE, BETA), "refresh: run it");

	@Test
	void rendersBetaAndStableMetricsOnly() {
		assertThat(this.golden).isEqualTo("""
				# refresh: run it
				- name: karpenter_nodes_launched_total
				  type: counter
				  stability: STABLE
				  help: "Help of karpenter_nodes_launched_total."
				  labels: [provisioner, zone]
				  buckets: []
				- name: karpenter_packing_seconds
				  type: histogram
				  stability: BETA
				  help: "Help of karpenter_packing_seconds."
				  labels: [provisioner]
				  buckets: [0.1, 1.0]
				""");
		assertThat(StableMetricsGoldenFile.differences(this.golden, List.of(STABLE, BETA, ALPHA))).isEmpty();
	}

	@Test
	void reportsAStableMetricThatLostALabel() {
		ReferenceEntry changed = entry(STABLE.name(), StabilityLevel.STABLE, List.of("provisioner"), List.of());
		assertThat(StableMetricsGoldenFile.differences(this.golden, List.of(changed, BETA))).containsExactly(
				"STABLE metric karpenter_nodes_launched_total lost label(s) [zone]: labels [provisioner, zone] -> [provisioner]");
	}

	@Test
	void failsWhenAStableMetricGainsALabelOrChangesHelp() {
		ReferenceEntry changed = new ReferenceEntry(STABLE.name(), "counter", "Other.",
				List.of("provisioner", "region", "zone"), StabilityLevel.STABLE, null, null, List.of(),
				ReferenceEntry.Group.CONTROLLER);
		assertThat(StableMetricsGoldenFile.differences(this.golden, List.of(changed, BETA))).containsExactly(
				"STABLE metric karpenter_nodes_launched_total gained label(s) [region]: labels [provisioner, zone] -> [provisioner, region, zone]",
				"STABLE metric karpenter_nodes_launched_total changed help: Help of karpenter_nodes_launched_total. -> Other.");
	}

	@Test
	void letsABetaMetricGainLabelsButNotLoseThem() {
		ReferenceEntry gained = entry(BETA.name(), StabilityLevel.BETA, List.of("provisioner", "zone"),
				List.of(0.1, 1.0));
		assertThat(StableMetricsGoldenFile.differences(this.golden, List.of(STABLE, gained))).isEmpty();
		ReferenceEntry lost = entry(BETA.name(), StabilityLevel.BETA, List.of(), List.of(0.1, 1.0));
		assertThat(StableMetricsGoldenFile.differences(this.golden, List.of(STABLE, lost))).containsExactly(
				"BETA metric karpenter_packing_seconds lost label(s) [provisioner]: labels [provisioner] -> []");
	}

	@Test
	void failsOnRemovedChangedAndUnlistedMetrics() {
		ReferenceEntry rebucketed = entry(BETA.name(), StabilityLevel.BETA, List.of("provisioner"), List.of(0.5));
		ReferenceEntry promoted = entry(ALPHA.name(), StabilityLevel.STABLE, List.of("provisioner"), List.of());
		assertThat(StableMetricsGoldenFile.differences(this.golden, List.of(rebucketed, promoted))).containsExactly(
				"STABLE metric karpenter_nodes_launched_total is no longer exposed as BETA or STABLE",
				"BETA metric karpenter_packing_seconds changed buckets: [0.1, 1.0] -> [0.5]",
				"STABLE metric karpenter_pending_pods is not in the golden file yet");
	}

	private static ReferenceEntry entry(String name, StabilityLevel level, List<String> labels, List<Double> buckets) {
		return new ReferenceEntry(name,
				buckets.isEmpty() ? (name.endsWith("_total") ? "counter" : "gauge") : "histogram",
				"Help of " + name + ".", labels, level, null, null, buckets, ReferenceEntry.Group.CONTROLLER);
	}

}
