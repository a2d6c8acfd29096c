package dev.controllerobservability.internal.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusNamesTests {

	@ParameterizedTest
	@CsvSource(nullValues = "null",
			value = { "karpenter.nodes,COUNTER,null,karpenter_nodes_total",
					"karpenter.nodes_total,COUNTER,null,karpenter_nodes_total",
					"karpenter.bind.duration,TIMER,null,karpenter_bind_duration_seconds",
					"jvm.memory.used,GAUGE,bytes,jvm_memory_used_bytes",
					"karpenter.wait_seconds,DISTRIBUTION_SUMMARY,seconds,karpenter_wait_seconds",
					"karpenter.pending_pods,GAUGE,null,karpenter_pending_pods",
					"karpenter.build.info,GAUGE,null,karpenter_build_info",
					"process.cpu.time,COUNTER,ns,process_cpu_time_ns_total" })
	void namesMetersAsThePrometheusRegistryExposesThem(String name, Meter.Type type, String unit, String expected) {
		Meter.Id id = new Meter.Id(name, Tags.empty(), unit, null, type);
		assertThat(PrometheusNames.familyName(id)).isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource(nullValues = "null", delimiter = ';', value = {
			"karpenter.nodes;COUNTER;null;karpenter_nodes_total,karpenter_nodes",
			"karpenter.bind.duration;TIMER;null;karpenter_bind_duration_seconds,karpenter_bind_duration_seconds_max",
			"karpenter.sync;LONG_TASK_TIMER;null;karpenter_sync_seconds,karpenter_sync_seconds_max",
			"karpenter.batch;DISTRIBUTION_SUMMARY;pods;karpenter_batch_pods,karpenter_batch_pods_max",
			"process.uptime;GAUGE;null;process_uptime,process_uptime_seconds",
			"jvm.memory.used;GAUGE;bytes;jvm_memory_used_bytes" })
	void listsEveryNameAMeterMayTakeInTheRegistry(String name, Meter.Type type, String unit, String expected) {
		Meter.Id id = new Meter.Id(name, Tags.empty(), unit, null, type);
		assertThat(PrometheusNames.registryNames(id)).containsExactly(expected.split(","));
	}

}
