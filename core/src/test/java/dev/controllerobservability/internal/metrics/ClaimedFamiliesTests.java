package dev.controllerobservability.internal.metrics;

import java.util.List;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.settings.SettingNames;

import static org.assertj.core.api.Assertions.assertThat;

class ClaimedFamiliesTests {

	@Test
	void findsACounterWhoseNameWithoutTotalIsAClaimedFamily() {
		ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
		assertThat(claimed.claim(List.of("w_apply_duration_seconds"), "operation 'apply'")).isTrue();
		assertThat(claimed.clash(id("w.apply.duration.seconds", Meter.Type.COUNTER)))
			.isEqualTo("w_apply_duration_seconds");
		assertThat(claimed.clash(id("w.apply.duration", Meter.Type.TIMER))).isEqualTo("w_apply_duration_seconds");
		assertThat(claimed.clash(id("w.other", Meter.Type.COUNTER))).isNull();
	}

	@Test
	void claimsNoFamilyOfAMeterRegisteredBeforeTheFilter() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		registry.timer("w.pre.duration");
		ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
		claimed.seen(registry.getMeters());
		assertThat(claimed.claim(List.of("w_pre_duration_seconds"), "operation 'pre'")).isFalse();
		assertThat(claimed.claim(List.of("w_other_duration_seconds"), "operation 'other'")).isTrue();
	}

	@Test
	void namesTheBuilderMethodInPlainJavaAndThePropertyOnTheSpringPath() {
		Meter.Id timer = id("w.apply.duration", Meter.Type.TIMER);
		assertThat(new ClaimedFamilies(SettingNames.BUILDER).refusal(timer, "w_apply_duration_seconds").getMessage())
			.endsWith("or leave out ControllerObservability.Builder.operationHistograms(…).")
			.doesNotContain("controller.observability");
		assertThat(new ClaimedFamilies(SettingNames.BUILDER).taken("Operation 'pre'", "w_pre_duration_seconds")
			.getMessage()).endsWith("or leave out ControllerObservability.Builder.operationHistograms(…).")
			.doesNotContain("controller.observability");
		assertThat(new ClaimedFamilies(SettingNames.PROPERTIES).refusal(timer, "w_apply_duration_seconds").getMessage())
			.endsWith("or set controller.observability.operations.backend=micrometer.");
	}

	private static Meter.Id id(String name, Meter.Type type) {
		return new Meter.Id(name, Tags.empty(), null, null, type);
	}

}
