package dev.controllerobservability.catalog;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.test.Allocations;
import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.stability.StabilityLevel;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ControllerMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final RecordingFailures failures = new RecordingFailures(this.registry, "karpenter", Duration.ofHours(1));

	private final CardinalityLimiter limiter = CardinalityLimiter.builder(this.registry, "karpenter")
		.allowLists(Map.of("karpenter_nodes_launched_total", Map.of("zone", Set.of("us-east-1a"))))
		.maxLabelValues(2)
		.maxLabelValueLength(64)
		.build();

	private final List<MetricDefinition> definitions = List.of(
			MetricDefinition.counter("nodes_launched_total")
				.help("Number of nodes launched.")
				.labels("provisioner", "zone")
				.stability(StabilityLevel.STABLE)
				.replaces("node_launches_total", "1.4.0")
				.build(),
			MetricDefinition.counter("rounds_total")
				.help("Provisioning rounds.")
				.labels("result")
				.labelValues("result", "success", "error")
				.build(),
			MetricDefinition.gauge("pending_pods").help("Pending pods.").labels("provisioner").build(),
			MetricDefinition.gauge("pods_by_phase").help("Pods by phase.").labels("phase").build(),
			MetricDefinition.histogram("packing_seconds").help("Packing.").unit("seconds").buckets(0.1, 1).build(),
			MetricDefinition.builder("wait_seconds", MetricType.SUMMARY).help("Wait.").unit("seconds").build(),
			MetricDefinition.builder("build_info", MetricType.INFO).help("Build.").labels("version").build(),
			MetricDefinition.counter("pods_bound_total")
				.help("Pods bound.")
				.stability(StabilityLevel.ALPHA)
				.deprecatedVersion("1.4.0")
				.build(),
			MetricDefinition.counter("old_total")
				.help("Old.")
				.stability(StabilityLevel.BETA)
				.deprecatedVersion("1.2.0")
				.build(),
			MetricDefinition.counter("off_total").help("Off.").build());

	private ControllerMetrics metrics(String version, String... disabled) {
		return new ControllerMetrics(this.registry, MetricCatalog.of("karpenter", this.definitions),
				new StabilityPolicy(Version.parse(version), null, Set.of(disabled)), this.limiter, this.failures,
				List.of(0.5, 5.0));
	}

	@Test
	void recordsCountersUnderTheNewAndTheReplacedName() {
		ControllerMetrics metrics = metrics("1.5.0");
		metrics.counter("nodes_launched_total", "zone", "us-east-1a", "provisioner", "gpu").increment();
		metrics.counter("nodes_launched_total", "provisioner", "gpu", "zone", "us-east-1a").increment(2);
		assertThat(count("karpenter.nodes_launched", "gpu")).isEqualTo(3);
		assertThat(count("karpenter.node_launches", "gpu")).isEqualTo(3);
		assertThat(this.registry.get("karpenter.nodes_launched").counter().getId().getDescription())
			.isEqualTo("[STABLE] Number of nodes launched.");
		assertThat(this.registry.get("karpenter.node_launches").counter().getId().getDescription())
			.isEqualTo("[STABLE] (Deprecated since 1.4.0) Number of nodes launched. Replaced by "
					+ "karpenter_nodes_launched_total.");
	}

	@Test
	void dropsTheReplacedNameAfterTheWindowOfItsLevel() {
		ControllerMetrics metrics = metrics("1.8.0");
		metrics.counter("nodes_launched_total", "provisioner", "gpu", "zone", "us-east-1a").increment();
		assertThat(count("karpenter.nodes_launched", "gpu")).isEqualTo(1);
		assertThat(this.registry.find("karpenter.node_launches").meters()).isEmpty();
		assertThat(this.registry.get("karpenter.hidden_metrics").counter().count()).isEqualTo(3);
	}

	@Test
	void presetsSeriesWhoseLabelValuesAreAllKnown() {
		metrics("1.4.0");
		assertThat(this.registry.get("karpenter.rounds").tags("result", "success").counter().count()).isZero();
		assertThat(this.registry.get("karpenter.rounds").tags("result", "error").counter().count()).isZero();
		assertThat(this.registry.find("karpenter.nodes_launched").meters()).isEmpty();
	}

	@Test
	void hidesDeprecatedAndDisabledMetricsAndCountsThem() {
		ControllerMetrics metrics = metrics("1.4.0", "karpenter_off_total");
		metrics.counter("pods_bound_total").increment();
		metrics.counter("old_total").increment();
		metrics.counter("off_total").increment();
		assertThat(this.registry.get("karpenter.pods_bound").counter().getId().getDescription())
			.isEqualTo("[ALPHA] (Deprecated since 1.4.0) Pods bound.");
		assertThat(this.registry.find("karpenter.old").meters()).isEmpty();
		assertThat(this.registry.find("karpenter.off").meters()).isEmpty();
		assertThat(this.registry.get("karpenter.hidden_metrics").counter().count()).isEqualTo(1);
		assertThat(this.registry.get("karpenter.disabled_metrics").counter().count()).isEqualTo(1);
		assertThat(this.registry.get("karpenter.registered_metrics")
			.tags("stability_level", "ALPHA", "deprecated_version", "1.4.0")
			.counter()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("karpenter.registered_metrics")
			.tags("stability_level", "STABLE", "deprecated_version", "")
			.counter()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("karpenter.registered_metrics")
			.tags("stability_level", "ALPHA", "deprecated_version", "")
			.counter()
			.count()).isEqualTo(6);
	}

	@Test
	void setsGaugesAndBacksThemByFunctions() {
		ControllerMetrics metrics = metrics("1.4.0");
		metrics.gauge("pending_pods", "provisioner", "gpu").set(7);
		AtomicInteger queue = new AtomicInteger(3);
		metrics.gauge("pending_pods", queue, AtomicInteger::get, "provisioner", "spot");
		queue.set(4);
		assertThat(this.registry.get("karpenter.pending_pods").tags("provisioner", "gpu").gauge().value()).isEqualTo(7);
		assertThat(this.registry.get("karpenter.pending_pods").tags("provisioner", "spot").gauge().value())
			.isEqualTo(4);
	}

	@Test
	void observesHistogramsWithTheirBucketsAndSummariesWithout() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		ControllerMetrics metrics = new ControllerMetrics(prometheus, MetricCatalog.of("karpenter", this.definitions),
				new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
				List.of(0.5, 5.0));
		metrics.histogram("packing_seconds").observe(0.3);
		metrics.histogram("wait_seconds").observe(2);
		assertThat(prometheus.scrape().lines().filter((line) -> line.contains("_bucket"))).containsExactly(
				"karpenter_packing_seconds_bucket{le=\"0.1\"} 0", "karpenter_packing_seconds_bucket{le=\"1.0\"} 1",
				"karpenter_packing_seconds_bucket{le=\"+Inf\"} 1");
		assertThat(prometheus.get("karpenter.wait_seconds").summary().count()).isEqualTo(1);
	}

	@Test
	void exposesInfoMetrics() {
		metrics("1.4.0").info("build_info", "version", "1.4.0");
		assertThat(this.registry.get("karpenter.build.info").tags("version", "1.4.0").gauge().value()).isEqualTo(1);
	}

	@Test
	void collectsSeriesAndDropsTheOnesNoLongerReported() {
		ControllerMetrics metrics = metrics("1.4.0");
		Map<String, Integer> phases = new ConcurrentHashMap<>(Map.of("Pending", 2, "Running", 5));
		metrics.collect("pods_by_phase",
				(samples) -> phases.forEach((phase, count) -> samples.add(count, "phase", phase)));
		metrics.refreshCollectors();
		assertThat(phaseValue("Pending")).isEqualTo(2);
		assertThat(phaseValue("Running")).isEqualTo(5);
		phases.remove("Pending");
		phases.put("Running", 6);
		metrics.refreshCollectors();
		assertThat(this.registry.find("karpenter.pods_by_phase").tags("phase", "Pending").gauge()).isNull();
		assertThat(phaseValue("Running")).isEqualTo(6);
	}

	@Test
	void keepsTheMeterOfASeriesReportedAgainSoAConcurrentScrapeNeverMissesIt() throws Exception {
		ControllerMetrics metrics = metrics("1.4.0");
		AtomicInteger running = new AtomicInteger(2);
		metrics.collect("pods_by_phase", (samples) -> samples.add(running.get(), "phase", "Running"));
		metrics.refreshCollectors();
		Meter first = this.registry.get("karpenter.pods_by_phase").tags("phase", "Running").gauge();
		Thread refreshing = new Thread(() -> {
			for (int i = 0; i < 20_000; i++) {
				running.incrementAndGet();
				metrics.refreshCollectors();
			}
		});
		refreshing.start();
		int missed = 0;
		while (refreshing.isAlive()) {
			if (this.registry.find("karpenter.pods_by_phase").tags("phase", "Running").gauge() == null) {
				missed++;
			}
		}
		refreshing.join();
		assertThat(missed).as("lookups that found no Running series").isZero();
		assertThat(this.registry.get("karpenter.pods_by_phase").tags("phase", "Running").gauge()).isSameAs(first);
		assertThat(phaseValue("Running")).isEqualTo(20_002);
	}

	@Test
	void remembersTheCounterOfALabelSetThatResolvesToItself() {
		ControllerMetrics metrics = metrics("1.5.0");
		MetricCounter first = metrics.counter("rounds_total", "result", "success");
		assertThat(metrics.counter("rounds_total", "result", "success")).isSameAs(first);
		metrics.counter("rounds_total", "result", "success").increment();
		assertThat(this.registry.get("karpenter.rounds").tag("result", "success").counter().count()).isEqualTo(1);
		// A wrong key still fails, however often the right one was used.
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.counter("rounds_total", "outcome", "success"));
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.counter("pending_pods", "provisioner", "gpu"));
	}

	@Test
	void refusesANullOrRepeatedLabelKeyByName() {
		ControllerMetrics metrics = metrics("1.5.0");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.counter("rounds_total", null, "success"))
			.withMessage("A label key of metric 'rounds_total' is null; its labels are [result]");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> metrics.counter("nodes_launched_total", "zone", "a", "zone", "b"))
			.withMessage("Label 'zone' of metric 'nodes_launched_total' is given twice; give each of "
					+ "[provisioner, zone] once");
		assertThat(this.registry.find("karpenter.nodes_launched").counters()).isEmpty();
	}

	@Test
	void refusesANullLabelArrayByNameInEveryMethod() {
		ControllerMetrics metrics = metrics("1.5.0");
		String[] none = null;
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.counter("rounds_total", none))
			.withMessage("Labels of metric 'rounds_total' are a null array; give every label key of [result], "
					+ "each followed by its value");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.counter("off_total", none))
			.withMessageContaining("Labels of metric 'off_total' are a null array");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.gauge("pending_pods", none))
			.withMessageContaining("Labels of metric 'pending_pods' are a null array");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> metrics.gauge("pending_pods", new Object(), (state) -> 1, none))
			.withMessageContaining("Labels of metric 'pending_pods' are a null array");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.histogram("packing_seconds", none))
			.withMessageContaining("Labels of metric 'packing_seconds' are a null array");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.info("build_info", none))
			.withMessageContaining("Labels of metric 'build_info' are a null array");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.collect("pods_by_phase", null))
			.withMessage(
					"Collector of metric 'pods_by_phase' is null; give a MetricCollector that reports its " + "series");
		assertThat(this.failures.count()).isZero();
	}

	@Test
	void recordsANullOrEmptyLabelValueAsNone() {
		ControllerMetrics metrics = metrics("1.5.0");
		metrics.counter("nodes_launched_total", "provisioner", "", "zone", "us-east-1a").increment();
		metrics.counter("nodes_launched_total", "provisioner", null, "zone", "us-east-1a").increment();
		metrics.counter("nodes_launched_total", "provisioner", "", "zone", "us-east-1a").increment();
		metrics.gauge("pending_pods", "provisioner", "").set(2);
		assertThat(this.registry.get("karpenter.nodes_launched").tags("provisioner", "none").counter().count())
			.isEqualTo(3);
		assertThat(this.registry.find("karpenter.nodes_launched").tag("provisioner", "").counter()).isNull();
		assertThat(this.registry.get("karpenter.pending_pods").tags("provisioner", "none").gauge().value())
			.isEqualTo(2);
	}

	@Test
	void findsARememberedOneLabelCounterWithoutAllocating() {
		ControllerMetrics metrics = metrics("1.5.0");
		int calls = 100_000;
		int rounds = 5;
		assertThat(Allocations.leastPerCall(() -> metrics.counter("rounds_total", "result", "success").increment(),
				calls, rounds))
			.as("bytes allocated per lookup and increment")
			.isLessThan(1.0);
		assertThat(this.registry.get("karpenter.rounds").tag("result", "success").counter().count())
			.isEqualTo((rounds + 1) * calls);
	}

	@Test
	void limitsAndCountsLabelValuesOnEveryCallThoughCountersAreRemembered() {
		ControllerMetrics metrics = metrics("1.5.0");
		for (int i = 0; i < 3; i++) {
			metrics.counter("rounds_total", "result", "success").increment();
			metrics.counter("rounds_total", "result", "error").increment();
			// maxLabelValues is 2: a third value becomes "unexpected", on every call.
			metrics.counter("rounds_total", "result", "timeout").increment();
		}
		assertThat(this.registry.get("karpenter.rounds").tag("result", "unexpected").counter().count()).isEqualTo(3);
		assertThat(this.registry.get("karpenter.cardinality_enforcement_unexpected_categorizations").counter().count())
			.isEqualTo(3);
	}

	@Test
	void capsTheSeriesOfEachScrapeOfACollector() {
		CardinalityLimiter capped = CardinalityLimiter.builder(this.registry, "karpenter")
			.maxSeriesPerMetric(3)
			.build();
		ControllerMetrics metrics = new ControllerMetrics(this.registry,
				MetricCatalog.of("karpenter", this.definitions), StabilityPolicy.showAll(), capped, this.failures,
				List.of(0.5, 5.0));
		Map<String, Integer> phases = new ConcurrentHashMap<>(Map.of("A", 1, "B", 2, "C", 3, "D", 4, "E", 5));
		metrics.collect("pods_by_phase",
				(samples) -> phases.forEach((phase, count) -> samples.add(count, "phase", phase)));
		metrics.refreshCollectors();
		assertThat(this.registry.find("karpenter.pods_by_phase").gauges()).hasSize(4);
		assertThat(phaseValue("overflow")).isEqualTo(15 - this.registry.find("karpenter.pods_by_phase")
			.gauges()
			.stream()
			.filter((gauge) -> !"overflow".equals(gauge.getId().getTag("phase")))
			.mapToDouble((gauge) -> gauge.value())
			.sum());
		assertThat(this.registry.get("karpenter.cardinality_enforcement_series_overflows").counter().count())
			.isEqualTo(2);
		// Series a collector no longer reports free their place: the cap is per scrape.
		phases.clear();
		phases.putAll(Map.of("F", 6, "G", 7));
		metrics.refreshCollectors();
		assertThat(this.registry.find("karpenter.pods_by_phase").gauges())
			.extracting((gauge) -> gauge.getId().getTag("phase"))
			.containsExactlyInAnyOrder("F", "G");
	}

	@Test
	void sendsLabelSetsBeyondTheSeriesCapToTheOverflowSeries() {
		CardinalityLimiter capped = CardinalityLimiter.builder(this.registry, "karpenter")
			.maxSeriesPerMetric(2)
			.build();
		ControllerMetrics metrics = new ControllerMetrics(this.registry,
				MetricCatalog.of("karpenter", this.definitions), StabilityPolicy.showAll(), capped, this.failures,
				List.of(0.5, 5.0));
		for (String provisioner : new String[] { "a", "b", "c", "d", "a" }) {
			metrics.gauge("pending_pods", "provisioner", provisioner).set(1);
		}
		assertThat(this.registry.find("karpenter.pending_pods").gauges())
			.extracting((gauge) -> gauge.getId().getTag("provisioner"))
			.containsExactlyInAnyOrder("a", "b", "overflow");
	}

	@Test
	void appliesAllowListsAndTheCapToLabelValues() {
		ControllerMetrics metrics = metrics("1.4.0");
		metrics.counter("nodes_launched_total", "provisioner", "a", "zone", "eu-west-1").increment();
		metrics.gauge("pending_pods", "provisioner", "a").set(1);
		metrics.gauge("pending_pods", "provisioner", "b").set(1);
		metrics.gauge("pending_pods", "provisioner", "c").set(1);
		assertThat(this.registry.get("karpenter.nodes_launched").tags("zone", "unexpected").counter().count())
			.isEqualTo(1);
		assertThat(this.registry.find("karpenter.pending_pods").gauges())
			.extracting((gauge) -> gauge.getId().getTag("provisioner"))
			.containsExactlyInAnyOrder("a", "b", "unexpected");
	}

	@Test
	void explainsUndeclaredNamesAndLabelsAtTheCallSite() {
		ControllerMetrics metrics = metrics("1.4.0");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.counter("nodes_total"))
			.withMessageStartingWith("Metric 'nodes_total' is not declared; declared metrics are [build_info, ")
			.withMessageContaining("ControllerObservability.Builder.metric(…)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> metrics.counter("nodes_launched_total", "provisioner", "a", "pod", "x"))
			.withMessage("Label 'pod' is not declared for metric 'nodes_launched_total'; its labels are "
					+ "[provisioner, zone]");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> metrics.counter("nodes_launched_total", "provisioner", "a"))
			.withMessageContaining("Label 'zone' of metric 'nodes_launched_total' has no value");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.gauge("nodes_launched_total"))
			.withMessageContaining("is declared as a counter, not a gauge");
	}

	@Test
	void neverThrowsRegistryFailuresIntoTheCaller() {
		ControllerMetrics metrics = metrics("1.4.0");
		this.registry.config().meterFilter(new io.micrometer.core.instrument.config.MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				throw new IllegalStateException("broken filter");
			}
		});
		metrics.counter("nodes_launched_total", "provisioner", "z", "zone", "us-east-1a").increment();
		metrics.gauge("pending_pods", "provisioner", "z").set(3);
		assertThat(this.failures.count()).isEqualTo(2);
	}

	@Test
	void recordsNoNegativeOrNonFiniteAmountAndCountsItAsAFailure() {
		ControllerMetrics metrics = metrics("1.4.0");
		MetricCounter counter = metrics.counter("nodes_launched_total", "provisioner", "gpu", "zone", "us-east-1a");
		counter.increment(2);
		counter.increment(-5);
		counter.increment(Double.NaN);
		counter.increment(Double.POSITIVE_INFINITY);
		counter.increment(0);
		MetricHistogram histogram = metrics.histogram("packing_seconds");
		histogram.observe(0.3);
		histogram.observe(-1);
		histogram.observe(Double.NaN);
		assertThat(count("karpenter.nodes_launched", "gpu")).isEqualTo(2);
		assertThat(count("karpenter.node_launches", "gpu")).isEqualTo(2);
		assertThat(this.registry.get("karpenter.packing_seconds").summary().count()).isEqualTo(1);
		assertThat(this.registry.get("karpenter.packing_seconds").summary().totalAmount()).isEqualTo(0.3);
		assertThat(this.failures.count()).isEqualTo(5);
	}

	@Test
	void countsAnObservationInItsTrueBucketOnAPrometheusRegistry() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		MetricHistogram histogram = new ControllerMetrics(prometheus, MetricCatalog.of("karpenter", this.definitions),
				new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
				List.of(0.5, 5.0))
			.histogram("packing_seconds");
		histogram.observe(0.05);
		histogram.observe(0.1);
		histogram.observe(Math.nextUp(0.1));
		assertThat(prometheus.scrape().lines()).contains("karpenter_packing_seconds_bucket{le=\"0.1\"} 2",
				"karpenter_packing_seconds_bucket{le=\"1.0\"} 3", "karpenter_packing_seconds_count 3",
				"karpenter_packing_seconds_max 0.10000000000000002");
	}

	@Test
	void recordsARenamedHistogramExactlyUnderBothNames() {
		PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		List<MetricDefinition> renamed = List.of(MetricDefinition.histogram("fill_ratio")
			.help("Fill.")
			.unit("ratio")
			.buckets(0.25, 0.5)
			.replaces("packing_ratio", "1.4.0")
			.build());
		MetricHistogram histogram = new ControllerMetrics(prometheus, MetricCatalog.of("karpenter", renamed),
				new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
				List.of(0.5, 5.0))
			.histogram("fill_ratio");
		histogram.observe(0.25);
		histogram.observe(0.3);
		for (String family : List.of("karpenter_fill_ratio", "karpenter_packing_ratio")) {
			assertThat(prometheus.scrape().lines()).contains(family + "_bucket{le=\"0.25\"} 1",
					family + "_bucket{le=\"0.5\"} 2", family + "_count 2", family + "_max 0.3");
		}
	}

	@Test
	void recordsAHistogramWithoutBucketsOnTheSimpleRegistryWhereMicrometerWouldRoundItsValuesUp() {
		Logger logger = (Logger) LoggerFactory.getLogger(ControllerMetrics.class);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		try {
			metrics("1.4.0").histogram("packing_seconds").observe(0.3);
		}
		finally {
			logger.detachAppender(appender);
		}
		assertThat(appender.list).extracting(ILoggingEvent::getFormattedMessage)
			.containsExactly("Histogram 'packing_seconds' is recorded without buckets on the SimpleMeterRegistry: "
					+ "Micrometer would count its values in the wrong buckets. Its _count, _sum and _max are exact. "
					+ "Declared histograms are exact on a PrometheusMeterRegistry.");
		DistributionSummary summary = this.registry.get("karpenter.packing_seconds").summary();
		assertThat(summary.takeSnapshot().histogramCounts()).isEmpty();
		assertThat(summary.count()).isEqualTo(1);
		assertThat(summary.totalAmount()).isEqualTo(0.3);
		assertThat(summary.max()).isEqualTo(0.3);
	}

	@Test
	void refusesAHistogramThatMicrometerWouldBucketWronglyOnAnyOtherRegistry() {
		CompositeMeterRegistry composite = new CompositeMeterRegistry(Clock.SYSTEM,
				List.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), new SimpleMeterRegistry()));
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> new ControllerMetrics(composite, MetricCatalog.of("karpenter", this.definitions),
					new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
					List.of(0.5, 5.0)))
			.satisfies((ex) -> {
				assertThat(ex.getMetric()).isEqualTo("packing_seconds");
				assertThat(ex.getField()).isEqualTo("buckets");
				assertThat(ex.getValue()).isEqualTo(List.of(0.1, 1.0));
				assertThat(ex.getReason()).isEqualTo("on this registry (CompositeMeterRegistry of "
						+ "[PrometheusMeterRegistry, SimpleMeterRegistry]) packing_seconds is a Micrometer "
						+ "distribution summary, and Micrometer rounds each value up to a whole number before it "
						+ "picks its bucket, so a value just above 0.0 is counted under le=\"1.0\", not le=\"0.1\"");
				assertThat(ex.getAction())
					.startsWith("Declare boundaries that are whole numbers from 1 to 2^63, "
							+ "such as [1, 2, 5, 10], for packing_seconds")
					.endsWith("or record to a PrometheusMeterRegistry alone, where declared histograms are exact");
			});
	}

	@Test
	void refusesAHistogramOfNegativeValuesOnAnyRegistryButPrometheus() {
		List<MetricDefinition> skew = List.of(MetricDefinition.histogram("clock_skew_seconds")
			.help("Skew.")
			.unit("seconds")
			.buckets(-1, 0, 1)
			.build());
		CompositeMeterRegistry composite = new CompositeMeterRegistry();
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> new ControllerMetrics(composite, MetricCatalog.of("karpenter", skew),
					new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
					List.of(0.5, 5.0)))
			.withMessageContaining(
					"Micrometer drops negative values, which this histogram's first boundary -1.0 " + "makes room for");
	}

	@Test
	void refusesAHistogramOfNegativeValuesOnTheSimpleRegistryTooWhichWouldDropThem() {
		List<MetricDefinition> skew = List.of(MetricDefinition.histogram("clock_skew_seconds")
			.help("Skew.")
			.unit("seconds")
			.buckets(-1, 0, 1)
			.build());
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> new ControllerMetrics(new SimpleMeterRegistry(), MetricCatalog.of("karpenter", skew),
					new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
					List.of(0.5, 5.0)))
			.withMessageContaining("on this registry (SimpleMeterRegistry)");
		// A registry of one's own is not taken for the one nothing scrapes.
		List<MetricDefinition> ratio = List
			.of(MetricDefinition.histogram("fill_ratio").help("Fill.").unit("ratio").buckets(0.5, 1).build());
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> new ControllerMetrics(new SimpleMeterRegistry() {
			}, MetricCatalog.of("karpenter", ratio), new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()),
					this.limiter, this.failures, List.of(0.5, 5.0)));
	}

	@Test
	void refusesBoundariesOfTwoToTheSixtyThirdOrMoreThatMicrometerHoldsAsALong() {
		List<MetricDefinition> huge = List
			.of(MetricDefinition.histogram("claim_size_bytes").help("Size.").unit("bytes").buckets(1, 1e19).build());
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> new ControllerMetrics(new CompositeMeterRegistry(), MetricCatalog.of("karpenter", huge),
					new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
					List.of(0.5, 5.0)))
			.withMessageContaining("Micrometer holds each value as a whole number of at most 2^63 - 1, so a value "
					+ "above 1.0E19 is counted under le=\"1.0E19\", not above it");
	}

	@Test
	void namesTheDefaultBucketsWhenAHistogramWithoutItsOwnTakesThem() {
		List<MetricDefinition> waits = List
			.of(MetricDefinition.histogram("wait_seconds").help("Wait.").unit("seconds").build());
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> new ControllerMetrics(new CompositeMeterRegistry(), MetricCatalog.of("karpenter", waits),
					new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
					List.of(0.5, 5.0)))
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("duration-buckets");
				assertThat(ex.getValue()).isEqualTo(List.of(0.5, 5.0));
				assertThat(ex.getReason()).contains("wait_seconds has no buckets of its own and takes these");
			});
	}

	@Test
	void refusesAHistogramAMeterFilterGaveBoundariesMicrometerWouldBucketWrongly() {
		SimpleMeterRegistry child = new SimpleMeterRegistry();
		child.config().meterFilter(new MeterFilter() {
			@Override
			public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
				return DistributionStatisticConfig.builder().serviceLevelObjectives(0.5, 2.5).build().merge(config);
			}
		});
		List<MetricDefinition> pods = List
			.of(MetricDefinition.histogram("pods_per_node").help("Pods.").buckets(1, 2, 4).build());
		Logger logger = (Logger) LoggerFactory.getLogger(RecordingFailures.class);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		try {
			ControllerMetrics metrics = new ControllerMetrics(new CompositeMeterRegistry(Clock.SYSTEM, List.of(child)),
					MetricCatalog.of("karpenter", pods), new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()),
					this.limiter, this.failures, List.of(0.5, 5.0));
			metrics.histogram("pods_per_node").observe(0.3);
			metrics.histogram("pods_per_node").observe(0.6);
		}
		finally {
			logger.detachAppender(appender);
		}
		assertThat(child.find("karpenter.pods_per_node").summary()).isNull();
		// Refused when it was made (a histogram without labels exists from then) and at
		// each call.
		assertThat(this.failures.count()).isEqualTo(3);
		assertThat(appender.list).first()
			.extracting((event) -> event.getThrowableProxy().getMessage())
			.isEqualTo("Histogram 'pods_per_node' is not recorded: a meter filter gave it the boundaries [0.5, 2.5] "
					+ "on SimpleMeterRegistry instead of [1.0, 2.0, 4.0], and Micrometer rounds each value up to a "
					+ "whole number before it picks its bucket, so a value just above 0.0 is counted under "
					+ "le=\"2.5\", not le=\"0.5\". Remove that filter or setting for karpenter.pods_per_node (such as "
					+ "management.metrics.distribution.slo.karpenter.pods_per_node)");
	}

	@Test
	void recordsAHistogramOfWholeNumberBucketsAsAMicrometerSummaryOnAnyRegistry() {
		List<MetricDefinition> pods = List
			.of(MetricDefinition.histogram("pods_per_node").help("Pods.").buckets(1, 2, 4).build());
		CompositeMeterRegistry composite = new CompositeMeterRegistry(Clock.SYSTEM, List.of(this.registry));
		MetricHistogram histogram = new ControllerMetrics(composite, MetricCatalog.of("karpenter", pods),
				new StabilityPolicy(Version.parse("1.4.0"), null, Set.of()), this.limiter, this.failures,
				List.of(0.5, 5.0))
			.histogram("pods_per_node");
		histogram.observe(1.5);
		histogram.observe(2);
		histogram.observe(4.01);
		// Rounded up to 2, 2 and 5, each value is still in its true bucket.
		assertThat(this.registry.get("karpenter.pods_per_node").summary().takeSnapshot().histogramCounts())
			.extracting(CountAtBucket::bucket, CountAtBucket::count)
			.containsExactly(tuple(1.0, 0.0), tuple(2.0, 2.0), tuple(4.0, 2.0));
	}

	private double count(String name, String provisioner) {
		return this.registry.get(name).tags("provisioner", provisioner).counter().count();
	}

	private double phaseValue(String phase) {
		return this.registry.get("karpenter.pods_by_phase").tags("phase", phase).gauge().value();
	}

}
