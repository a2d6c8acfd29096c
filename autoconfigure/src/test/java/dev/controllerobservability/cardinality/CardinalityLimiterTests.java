package dev.controllerobservability.cardinality;

import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CardinalityLimiterTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final CardinalityLimiter limiter = new CardinalityLimiter(this.registry, "karpenter",
			Map.of("karpenter_nodes_total", Map.of("zone", Set.of("us-east-1a", "us-east-1b"))), 3, 10);

	@Test
	void replacesValuesOutsideTheAllowList() {
		assertThat(this.limiter.categorize("karpenter_nodes_total", "zone", "us-east-1a")).isEqualTo("us-east-1a");
		assertThat(this.limiter.categorize("karpenter_nodes_total", "zone", "eu-west-1")).isEqualTo("unexpected");
		assertThat(unexpectedCount()).isEqualTo(1);
	}

	@Test
	void capsDistinctValuesPerMetricAndLabel() {
		for (String value : new String[] { "a", "b", "c", "a" }) {
			assertThat(this.limiter.categorize("karpenter_nodes_total", "provisioner", value)).isEqualTo(value);
		}
		assertThat(this.limiter.categorize("karpenter_nodes_total", "provisioner", "d")).isEqualTo("unexpected");
		assertThat(this.limiter.categorize("karpenter_nodes_total", "provisioner", "c")).isEqualTo("c");
		assertThat(this.limiter.categorize("karpenter_pods_total", "provisioner", "d")).isEqualTo("d");
		assertThat(unexpectedCount()).isEqualTo(1);
	}

	@Test
	void truncatesLongValuesBeforeCounting() {
		assertThat(this.limiter.categorize("karpenter_pods_total", "pod", "0123456789abcdef")).isEqualTo("0123456789");
		assertThat(this.limiter.categorize("karpenter_pods_total", "pod", "0123456789xyz")).isEqualTo("0123456789");
		assertThat(unexpectedCount()).isZero();
	}

	@Test
	void keepsAtMostTheCapPlusOneValuesWhateverCallersPass() {
		Set<String> seen = new java.util.HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			seen.add(this.limiter.categorize("karpenter_pods_total", "provisioner", "p" + i));
		}
		assertThat(seen).containsExactlyInAnyOrder("p0", "p1", "p2", "unexpected");
		assertThat(unexpectedCount()).isEqualTo(9_997);
	}

	private double unexpectedCount() {
		return this.registry.get("karpenter.cardinality_enforcement_unexpected_categorizations").counter().count();
	}

}
