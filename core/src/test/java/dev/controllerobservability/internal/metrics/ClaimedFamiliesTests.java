package dev.controllerobservability.internal.metrics;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.Gauge;
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

	@Test
	void deniesATimeGaugeThatWouldTakeAClaimedFamily() {
		ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
		PrometheusMeterRegistry registry = filtered(claimed);
		Gauge.builder().name("w_uptime_seconds").help("Claimed.").register(registry.getPrometheusRegistry()).set(1);
		assertThat(claimed.claim(List.of("w_uptime_seconds"), "the claimed gauge")).isTrue();
		AtomicLong uptime = new AtomicLong(7);
		TimeGauge.builder("w.uptime", uptime, TimeUnit.SECONDS, AtomicLong::get).register(registry);
		assertThat(registry.find("w.uptime").meters()).isEmpty();
		assertThat(registry.scrape().lines().filter((line) -> line.startsWith("w_uptime_seconds ")))
			.containsExactly("w_uptime_seconds 1.0");
	}

	@Test
	void deniesFunctionCountersAndFunctionTimersAsTheirPlainKinds() {
		ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
		PrometheusMeterRegistry registry = filtered(claimed);
		assertThat(claimed.claim(List.of("w_calls", "w_apply_duration_seconds"), "the claimed families")).isTrue();
		AtomicLong calls = new AtomicLong(3);
		FunctionCounter.builder("w.calls", calls, AtomicLong::get).register(registry);
		FunctionTimer.builder("w.apply.duration", calls, AtomicLong::get, AtomicLong::get, TimeUnit.SECONDS)
			.register(registry);
		FunctionCounter.builder("w.other", calls, AtomicLong::get).register(registry);
		assertThat(registry.getMeters()).extracting((meter) -> meter.getId().getName()).containsExactly("w.other");
	}

	@Test
	void countsTheMaxGaugeOfALongTaskTimer() {
		ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
		assertThat(claimed.claim(List.of("w_sync_seconds_max"), "the claimed gauge")).isTrue();
		assertThat(claimed.clash(id("w.sync", Meter.Type.LONG_TASK_TIMER))).isEqualTo("w_sync_seconds_max");
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		LongTaskTimer.builder("w.resync").register(registry);
		ClaimedFamilies later = new ClaimedFamilies(SettingNames.BUILDER);
		later.seen(registry.getMeters());
		assertThat(later.claim(List.of("w_resync_seconds_max"), "the claimed gauge")).isFalse();
	}

	@Test
	void saysThatAGaugeWithoutUnitClashesAsATimeGauge() {
		ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
		claimed.claim(List.of("w_uptime_seconds", "w_pods"), "a claimed family");
		Meter.Id uptime = id("w.uptime", Meter.Type.GAUGE);
		assertThat(claimed.clash(uptime)).isEqualTo("w_uptime_seconds");
		assertThat(claimed.refusal(uptime, "w_uptime_seconds").getMessage())
			.contains("it would be exposed as w_uptime_seconds if it is a time gauge, which is a claimed family");
		Meter.Id pods = id("w.pods", Meter.Type.GAUGE);
		assertThat(claimed.clash(pods)).isEqualTo("w_pods");
		assertThat(claimed.refusal(pods, "w_pods").getMessage())
			.contains("it would be exposed as w_pods, which is a claimed family");
	}

	/** A Prometheus meter registry whose meter filter denies what would take a claim. */
	private static PrometheusMeterRegistry filtered(ClaimedFamilies claimed) {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		registry.config().meterFilter(new ControllerMeterFilter(NamingPolicy.builder("w").build(), claimed));
		return registry;
	}

	private static Meter.Id id(String name, Meter.Type type) {
		return new Meter.Id(name, Tags.empty(), null, null, type);
	}

}
