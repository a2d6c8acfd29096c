package dev.controllerobservability.internal.metrics;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NamingPolicyTests {

	private final NamingPolicy naming = NamingPolicy.builder("karpenter")
		.commonTags(Tags.of("cluster", "dev", "region", "eu"))
		.registryTags(Map.of("application", "demo", "cluster", "from-registry"))
		.meterPrefixes(List.of("cloud.api"))
		.disabledMetrics(List.of("karpenter_old_total"))
		.durationBuckets(List.of(0.5, 2.0))
		.build();

	@Test
	void namesControllerMetersAndGivesMetersUnderAPrefixTheNamespace() {
		assertThat(this.naming.meterName("bind.duration")).isEqualTo("karpenter.bind.duration");
		assertThat(this.naming.exposedName("nodes_total")).isEqualTo("karpenter_nodes_total");
		assertThat(this.naming.controllerMeterName("karpenter.bind.duration")).isEqualTo("karpenter.bind.duration");
		assertThat(this.naming.controllerMeterName("cloud.api.calls")).isEqualTo("karpenter.cloud.api.calls");
		assertThat(this.naming.controllerMeterName("cloud.apis")).isNull();
		assertThat(this.naming.controllerMeterName("jvm.memory.used")).isNull();
	}

	@Test
	void givesControllerFamiliesTheRegistryTagsUnderTheCommonTagsAndStandardFamiliesOnlyTheRegistryTags() {
		assertThat(this.naming.controllerLabels())
			.containsExactlyInAnyOrderEntriesOf(Map.of("application", "demo", "cluster", "dev", "region", "eu"));
		assertThat(this.naming.standardLabels())
			.containsExactlyInAnyOrderEntriesOf(Map.of("application", "demo", "cluster", "from-registry"));
	}

	@Test
	void givesTimersAndSecondsSummariesTheDurationBucketsInTheirUnitsAndOtherSummariesNone() {
		assertThat(this.naming.defaultBuckets(id(Meter.Type.TIMER, null))).containsExactly(5e8, 2e9);
		// Micrometer would round a summary's 0.3 up to 1 and count it under 2.0, not 0.5.
		assertThat(this.naming.defaultBuckets(id(Meter.Type.DISTRIBUTION_SUMMARY, "seconds"))).isNull();
		assertThat(NamingPolicy.builder("karpenter")
			.durationBuckets(List.of(1.0, 5.0))
			.build()
			.defaultBuckets(id(Meter.Type.DISTRIBUTION_SUMMARY, "seconds"))).containsExactly(1.0, 5.0);
		assertThat(this.naming.defaultBuckets(id(Meter.Type.DISTRIBUTION_SUMMARY, "bytes"))).isNull();
		assertThat(this.naming.durationBuckets(List.of())).containsExactly(0.5, 2.0);
		assertThat(this.naming.durationBuckets(List.of(1.0))).containsExactly(1.0);
	}

	@Test
	void disablesByExposedName() {
		assertThat(this.naming.isDisabled("karpenter_old_total")).isTrue();
		assertThat(this.naming.isDisabled("karpenter_old")).isFalse();
	}

	private static Meter.Id id(Meter.Type type, String baseUnit) {
		return new Meter.Id("karpenter.x", Tags.empty(), baseUnit, null, type);
	}

}
