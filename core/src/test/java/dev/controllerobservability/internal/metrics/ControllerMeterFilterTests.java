package dev.controllerobservability.internal.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

class ControllerMeterFilterTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	ControllerMeterFilterTests() {
		this.registry.config()
			.meterFilter(new ControllerMeterFilter(NamingPolicy.builder("karpenter")
				.commonTags(Tags.of("cluster", "dev"))
				.durationBuckets(List.of(0.1, 1.0, 10.0))
				.meterPrefixes(List.of("nodes", "cloud.api"))
				.disabledMetrics(List.of("karpenter_old_total", "jvm_threads_peak_threads"))
				.build()));
	}

	@Test
	void addsCommonTagsToNamespacedMetersWithoutPrefixingAgain() {
		Counter counter = this.registry.counter("karpenter.pods.bound");
		assertThat(counter.getId().getName()).isEqualTo("karpenter.pods.bound");
		assertThat(counter.getId().getTags()).containsExactly(io.micrometer.core.instrument.Tag.of("cluster", "dev"));
	}

	@Test
	void prefixesMetersMatchingAConfiguredPrefixOnce() {
		assertThat(this.registry.counter("nodes.created").getId().getName()).isEqualTo("karpenter.nodes.created");
		assertThat(this.registry.counter("cloud.api.calls").getId().getName()).isEqualTo("karpenter.cloud.api.calls");
		assertThat(this.registry.counter("karpenter.nodes.created").getId().getName())
			.isEqualTo("karpenter.nodes.created");
		assertThat(this.registry.counter("nodesx.created").getId().getName()).isEqualTo("nodesx.created");
		assertThat(this.registry.counter("cloud.apis").getId().getName()).isEqualTo("cloud.apis");
	}

	@Test
	void leavesFrameworkMetersExactlyAsRegistered() {
		Timer timer = this.registry.timer("http.server.requests", "uri", "/");
		assertThat(timer.getId().getName()).isEqualTo("http.server.requests");
		assertThat(timer.getId().getTags()).extracting(io.micrometer.core.instrument.Tag::getKey)
			.containsExactly("uri");
		assertThat(buckets(timer)).isEmpty();
		assertThat(this.registry.gauge("jvm.threads.live", 1.0)).isEqualTo(1.0);
		assertThat(this.registry.get("jvm.threads.live").gauge().getId().getTags()).isEmpty();
	}

	@Test
	void keepsTheMetersOwnTagValueOverACommonTag() {
		Counter counter = this.registry.counter("karpenter.pods.bound", "cluster", "prod");
		assertThat(counter.getId().getTag("cluster")).isEqualTo("prod");
	}

	@Test
	void appliesDefaultDurationBucketsToControllerTimers() {
		assertThat(buckets(this.registry.timer("karpenter.bind.duration"))).containsExactly(0.1, 1.0, 10.0);
	}

	@Test
	void keepsBucketsAMeterWasRegisteredWith() {
		Timer timer = Timer.builder("karpenter.launch.duration")
			.serviceLevelObjectives(java.time.Duration.ofMillis(500))
			.register(this.registry);
		assertThat(buckets(timer)).containsExactly(0.5);
	}

	@Test
	void givesSummariesOfSecondsNoDurationBucketsMicrometerWouldRoundValuesUpPast() {
		DistributionSummary seconds = DistributionSummary.builder("karpenter.queue.wait")
			.baseUnit("seconds")
			.register(this.registry);
		// Micrometer would count 0.05 s, rounded up to 1, under le="1.0" rather than
		// le="0.1": no buckets rather than wrong ones.
		seconds.record(0.05);
		assertThat(seconds.takeSnapshot().histogramCounts()).isEmpty();
		assertThat(seconds.count()).isEqualTo(1);
	}

	@Test
	void appliesWholeNumberDurationBucketsToSummariesOfSecondsOnly() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		registry.config()
			.meterFilter(new ControllerMeterFilter(
					NamingPolicy.builder("karpenter").durationBuckets(List.of(1.0, 10.0, 60.0)).build()));
		DistributionSummary seconds = DistributionSummary.builder("karpenter.queue.wait")
			.baseUnit("seconds")
			.register(registry);
		DistributionSummary pods = DistributionSummary.builder("karpenter.batch.size").register(registry);
		seconds.record(1.5);
		assertThat(Arrays.stream(seconds.takeSnapshot().histogramCounts()))
			.extracting(CountAtBucket::bucket, CountAtBucket::count)
			.containsExactly(tuple(1.0, 0.0), tuple(10.0, 1.0), tuple(60.0, 1.0));
		assertThat(pods.takeSnapshot().histogramCounts()).isEmpty();
	}

	@Test
	void recognisesControllerMetricsByNamespace() {
		ControllerMeterFilter filter = new ControllerMeterFilter(NamingPolicy.builder("karpenter").build());
		assertThat(filter.isControllerMetric("karpenter.bind.duration")).isTrue();
		assertThat(filter.isControllerMetric("karpenter_nodes_total")).isTrue();
		assertThat(filter.isControllerMetric("karpenterx.bind")).isFalse();
		assertThat(filter.isControllerMetric("jvm.memory.used")).isFalse();
	}

	@Test
	void deniesDisabledMetricsByTheirPrometheusNames() {
		Gauge.builder("jvm.threads.peak", () -> 3).baseUnit("threads").register(this.registry);
		this.registry.counter("karpenter.old").increment();
		this.registry.counter("karpenter.new").increment();
		assertThat(this.registry.find("karpenter.old").counter()).isNull();
		assertThat(this.registry.find("jvm.threads.peak").gauge()).isNull();
		assertThat(this.registry.find("karpenter.new").counter()).isNotNull();
	}

	@Test
	void deniesADisabledTimeGaugeByTheNameTheRegistryGivesIt() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		ControllerMeterFilter filter = new ControllerMeterFilter(
				NamingPolicy.builder("karpenter").disabledMetrics(List.of("process_uptime_seconds")).build());
		registry.config().meterFilter(filter);
		TimeGauge.builder("process.uptime", () -> 5, TimeUnit.SECONDS).register(registry);
		TimeGauge.builder("process.start.time", () -> 5, TimeUnit.SECONDS).register(registry);
		assertThat(registry.getMeters()).extracting((meter) -> meter.getId().getName())
			.containsExactly("process.start.time");
		assertThat(filter.deniedMetrics()).containsExactly("process_uptime_seconds");
	}

	@Test
	void keepsAnEmptyBucketListAsASummary() {
		DistributionSummary summary = DistributionSummary.builder("karpenter.wait")
			.baseUnit("seconds")
			.serviceLevelObjectives()
			.register(this.registry);
		assertThat(summary.takeSnapshot().histogramCounts()).isEmpty();
	}

	private static List<Double> buckets(Timer timer) {
		return Arrays.stream(timer.takeSnapshot().histogramCounts()).map((bucket) -> bucket.bucket() / 1e9).toList();
	}

}
