package dev.controllerobservability.internal.cardinality;

import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.controllerobservability.test.CapturedLog;

import static org.assertj.core.api.Assertions.assertThat;

class CardinalityLimiterTests {

	@RegisterExtension
	final CapturedLog log = new CapturedLog(CardinalityLimiter.class);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final CardinalityLimiter limiter = CardinalityLimiter.builder(this.registry, "karpenter")
		.allowLists(Map.of("karpenter_nodes_total", Map.of("zone", Set.of("us-east-1a", "us-east-1b"))))
		.maxLabelValues(3)
		.maxLabelValueLength(10)
		.maxSeriesPerMetric(4)
		.build();

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

	@Test
	void sendsLabelSetsBeyondTheSeriesCapToOneOverflowSeries() {
		for (int i = 0; i < 4; i++) {
			assertThat(this.limiter.limit("karpenter_pods_total", "provisioner", "p" + (i % 2), "zone", "z" + (i / 2)))
				.isEqualTo(Tags.of("provisioner", "p" + (i % 2), "zone", "z" + (i / 2)));
		}
		assertThat(this.limiter.limit("karpenter_pods_total", "provisioner", "p0", "zone", "z2"))
			.isEqualTo(Tags.of("provisioner", "overflow", "zone", "overflow"));
		assertThat(this.limiter.limit("karpenter_pods_total", "provisioner", "p1", "zone", "z1"))
			.isEqualTo(Tags.of("provisioner", "p1", "zone", "z1"));
		assertThat(this.limiter.limit("karpenter_nodes_total", "provisioner", "p0", "zone", "us-east-1a"))
			.isEqualTo(Tags.of("provisioner", "p0", "zone", "us-east-1a"));
		assertThat(this.registry.get("karpenter.cardinality_enforcement_series_overflows").counter().count())
			.isEqualTo(1);
		this.limiter.limit("karpenter_pods_total", "provisioner", "p1", "zone", "z3");
		// Counted every time, logged once per metric.
		assertThat(this.registry.get("karpenter.cardinality_enforcement_series_overflows").counter().count())
			.isEqualTo(2);
		assertThat(this.log.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage()).contains("karpenter_pods_total",
					"ControllerObservability.Builder.maxSeriesPerMetric(…)"));
	}

	@Test
	void keepsAtMostTheSeriesCapPlusOneLabelSetsWhateverCallersPass() {
		Set<Tags> seen = new java.util.HashSet<>();
		for (int i = 0; i < 1_000; i++) {
			seen.add(this.limiter.limit("karpenter_pods_total", "a", "a" + (i % 3), "b", "b" + (i / 3 % 3)));
		}
		assertThat(seen).hasSize(5).contains(Tags.of("a", "overflow", "b", "overflow"));
	}

	private double unexpectedCount() {
		return this.registry.get("karpenter.cardinality_enforcement_unexpected_categorizations").counter().count();
	}

}
