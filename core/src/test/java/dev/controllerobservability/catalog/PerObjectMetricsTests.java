package dev.controllerobservability.catalog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.internal.test.Allocations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Per-object metrics: series that carry their object's identity, leave with it, free
 * their place under the series cap, expire when idle, and never lose an increment to a
 * live series, on both recording stacks.
 */
class PerObjectMetricsTests {

	private static final List<MetricDefinition> DEFINITIONS = List.of(
			MetricDefinition.counter("certificate_renewals_total")
				.help("Renewals of a certificate.")
				.labels("result")
				.perObject()
				.build(),
			MetricDefinition.gauge("certificate_ready_status")
				.help("Whether a certificate is ready.")
				.labels("condition")
				.perObject()
				.build(),
			MetricDefinition.histogram("certificate_issue_seconds")
				.help("Time to issue a certificate.")
				.unit("seconds")
				.buckets(0.5, 1, 2)
				.perObject()
				.build(),
			MetricDefinition.gauge("resource_generation").help("Generation of a resource.").perObjectWithKind().build(),
			MetricDefinition.gauge("certificate_last_seen_timestamp_seconds")
				.help("When a certificate was last seen.")
				.unit("seconds")
				.perObject()
				.timeToLive(Duration.ofMinutes(10))
				.build(),
			MetricDefinition.counter("renewals_total").help("Renewals of all certificates.").labels("result").build());

	private final MockClock clock = new MockClock();

	static Stream<String> stacks() {
		return Stream.of("micrometer", "prometheus");
	}

	private MeterRegistry registry(String stack) {
		return stack.equals("prometheus")
				? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
						new io.prometheus.metrics.model.registry.PrometheusRegistry(), this.clock)
				: new SimpleMeterRegistry(SimpleConfig.DEFAULT, this.clock);
	}

	private ControllerMetrics metrics(MeterRegistry registry, int maxSeries) {
		CardinalityLimiter limiter = CardinalityLimiter.builder(registry, "cm")
			.maxLabelValues(3)
			.maxSeriesPerMetric(maxSeries)
			.build();
		return new ControllerMetrics(registry, MetricCatalog.of("cm", DEFINITIONS),
				new StabilityPolicy(Version.parse("1.0.0"), null, Set.of()), limiter,
				new RecordingFailures(registry, "cm", Duration.ofHours(1)), List.of(0.5, 5.0));
	}

	@ParameterizedTest
	@MethodSource("stacks")
	void seriesCarryTheObjectAndLeaveWithItAtOnce(String stack) {
		MeterRegistry registry = registry(stack);
		ControllerMetrics metrics = metrics(registry, 100);
		ObjectRef web = ObjectRef.of("prod", "web-tls");
		ObjectRef api = ObjectRef.of("prod", "api-tls");
		metrics.counter("certificate_renewals_total", web, "result", "success").increment(2);
		metrics.gauge("certificate_ready_status", web, "condition", "True").set(1);
		metrics.histogram("certificate_issue_seconds", web).observe(0.75);
		metrics.counter("certificate_renewals_total", api, "result", "success").increment();
		assertThat(registry.get("cm.certificate_renewals")
			.tags("namespace", "prod", "name", "web-tls", "result", "success")
			.counter()
			.count()).isEqualTo(2);
		assertThat(histogramCount(registry, "web-tls")).isEqualTo(1);
		assertThat(metrics.liveObjects()).isEqualTo(2);

		assertThat(metrics.forget(web)).isEqualTo(3);

		assertThat(registry.find("cm.certificate_renewals").tag("name", "web-tls").meters()).isEmpty();
		assertThat(registry.find("cm.certificate_ready_status").meters()).isEmpty();
		assertThat(histogramCount(registry, "web-tls")).isZero();
		assertThat(registry.get("cm.certificate_renewals").tag("name", "api-tls").counter().count()).isEqualTo(1);
		assertThat(metrics.liveObjects()).isEqualTo(1);
		assertThat(metrics.forget(web)).isZero();
	}

	@ParameterizedTest
	@MethodSource("stacks")
	void aHandleKeptAcrossForgetStartsItsSeriesAnewWithOnlyLaterValues(String stack) {
		MeterRegistry registry = registry(stack);
		ControllerMetrics metrics = metrics(registry, 100);
		ObjectRef web = ObjectRef.of("prod", "web-tls");
		MetricCounter renewals = metrics.counter("certificate_renewals_total", web, "result", "success");
		MetricHistogram issue = metrics.histogram("certificate_issue_seconds", web);
		renewals.increment(5);
		issue.observe(1.5);
		metrics.forget(web);
		renewals.increment();
		issue.observe(0.25);
		assertThat(registry.get("cm.certificate_renewals").tag("name", "web-tls").counter().count()).isEqualTo(1);
		assertThat(histogramCount(registry, "web-tls")).isEqualTo(1);
	}

	@ParameterizedTest
	@MethodSource("stacks")
	void forgettingAnObjectFreesItsPlaceUnderTheSeriesCap(String stack) {
		MeterRegistry registry = registry(stack);
		ControllerMetrics metrics = metrics(registry, 2);
		metrics.counter("certificate_renewals_total", ObjectRef.of("a", "one"), "result", "ok").increment();
		metrics.counter("certificate_renewals_total", ObjectRef.of("a", "two"), "result", "ok").increment();
		metrics.counter("certificate_renewals_total", ObjectRef.of("a", "three"), "result", "ok").increment();
		assertThat(registry.get("cm.certificate_renewals").tag("name", "overflow").counter().count()).isEqualTo(1);
		double overflows = registry.get("cm.cardinality_enforcement_series_overflows").counter().count();

		metrics.forget(ObjectRef.of("a", "one"));
		metrics.counter("certificate_renewals_total", ObjectRef.of("a", "four"), "result", "ok").increment();

		assertThat(registry.get("cm.certificate_renewals").tag("name", "four").counter().count()).isEqualTo(1);
		assertThat(registry.get("cm.certificate_renewals").tag("name", "overflow").counter().count()).isEqualTo(1);
		assertThat(registry.get("cm.cardinality_enforcement_series_overflows").counter().count()).isEqualTo(overflows);

		// A handle kept from before its object was forgotten is a new label set, which
		// goes to the overflow series while the cap is full.
		MetricCounter kept = metrics.counter("certificate_renewals_total", ObjectRef.of("a", "two"), "result", "ok");
		metrics.forget(ObjectRef.of("a", "two"));
		metrics.counter("certificate_renewals_total", ObjectRef.of("a", "five"), "result", "ok").increment();
		kept.increment();
		assertThat(registry.get("cm.certificate_renewals").tag("name", "overflow").counter().count()).isEqualTo(2);
		assertThat(registry.find("cm.certificate_renewals").tag("name", "two").meters()).isEmpty();
	}

	@Test
	void theObjectsNamesAreNotCappedPerLabelButTheirOtherLabelsAre() {
		MeterRegistry registry = registry("micrometer");
		ControllerMetrics metrics = metrics(registry, 100);
		for (int i = 0; i < 10; i++) {
			metrics.counter("certificate_renewals_total", ObjectRef.of("prod", "cert-" + i), "result", "r" + i)
				.increment();
		}
		assertThat(registry.find("cm.certificate_renewals").meters()).hasSize(10);
		assertThat(registry.find("cm.certificate_renewals").tag("result", "unexpected").meters()).hasSize(7);
		assertThat(registry.find("cm.certificate_renewals").tag("name", "cert-9").meters()).hasSize(1);
	}

	@Test
	void theKindSparesTheSeriesOfOtherKindsWhereMetricsCarryIt() {
		MeterRegistry registry = registry("micrometer");
		ControllerMetrics metrics = metrics(registry, 100);
		metrics.gauge("resource_generation", ObjectRef.of("Provisioner", "", "default")).set(3);
		metrics.gauge("resource_generation", ObjectRef.of("NodePool", "", "default")).set(4);
		metrics.gauge("certificate_ready_status", ObjectRef.of("", "default"), "condition", "True").set(1);
		assertThat(registry.get("cm.resource_generation").tags("kind", "NodePool", "namespace", "none").gauge().value())
			.isEqualTo(4);

		assertThat(metrics.forget(ObjectRef.of("Provisioner", "", "default"))).isEqualTo(2);
		assertThat(registry.find("cm.resource_generation").tag("kind", "Provisioner").meters()).isEmpty();
		assertThat(registry.find("cm.resource_generation").tag("kind", "NodePool").meters()).hasSize(1);
		assertThat(registry.find("cm.certificate_ready_status").meters()).isEmpty();

		assertThat(metrics.forget(ObjectRef.of("", "default"))).isEqualTo(1);
		assertThat(registry.find("cm.resource_generation").meters()).isEmpty();
	}

	@Test
	void aSeriesNotWrittenForItsTimeToLiveIsRemovedAndNotBefore() {
		MeterRegistry registry = registry("micrometer");
		ControllerMetrics metrics = metrics(registry, 100);
		MetricGauge quiet = metrics.gauge("certificate_last_seen_timestamp_seconds", ObjectRef.of("prod", "quiet"));
		MetricGauge busy = metrics.gauge("certificate_last_seen_timestamp_seconds", ObjectRef.of("prod", "busy"));
		metrics.counter("certificate_renewals_total", ObjectRef.of("prod", "quiet"), "result", "ok").increment();
		quiet.set(1);
		for (int minute = 1; minute <= 9; minute++) {
			this.clock.add(Duration.ofMinutes(1));
			busy.set(minute);
			assertThat(metrics.expireIdleSeries()).isZero();
		}
		// Nine minutes and 59 seconds after its last write: kept.
		this.clock.add(Duration.ofSeconds(59));
		assertThat(metrics.expireIdleSeries()).isZero();
		// Removed at most two epochs (a tenth of the time to live each) after its time.
		this.clock.add(Duration.ofMinutes(2));
		assertThat(metrics.expireIdleSeries()).isEqualTo(1);
		assertThat(registry.find("cm.certificate_last_seen_timestamp_seconds").tag("name", "quiet").meters()).isEmpty();
		assertThat(registry.find("cm.certificate_last_seen_timestamp_seconds").tag("name", "busy").meters()).hasSize(1);
		// Metrics without a time to live keep their series until the object is forgotten.
		assertThat(registry.find("cm.certificate_renewals").tag("name", "quiet").meters()).hasSize(1);

		quiet.set(2);
		assertThat(registry.get("cm.certificate_last_seen_timestamp_seconds").tag("name", "quiet").gauge().value())
			.isEqualTo(2);
	}

	@Test
	void aFunctionGaugeGivenAgainCountsAsWrittenAndAKeptGaugeHandleSetsItsSeriesAnew() {
		MeterRegistry registry = registry("micrometer");
		ControllerMetrics metrics = metrics(registry, 100);
		ObjectRef given = ObjectRef.of("prod", "given");
		AtomicLong expiry = new AtomicLong(42);
		metrics.gauge("certificate_last_seen_timestamp_seconds", expiry, AtomicLong::get, "namespace", "prod", "name",
				"given");
		for (int minute = 1; minute <= 30; minute++) {
			this.clock.add(Duration.ofMinutes(1));
			metrics.gauge("certificate_last_seen_timestamp_seconds", expiry, AtomicLong::get, "namespace", "prod",
					"name", "given");
			metrics.expireIdleSeries();
		}
		assertThat(registry.get("cm.certificate_last_seen_timestamp_seconds").tag("name", "given").gauge().value())
			.isEqualTo(42);

		MetricGauge ready = metrics.gauge("certificate_ready_status", given, "condition", "True");
		ready.set(1);
		metrics.forget(given);
		assertThat(registry.find("cm.certificate_ready_status").meters()).isEmpty();
		ready.set(0.5);
		assertThat(registry.get("cm.certificate_ready_status").tag("name", "given").gauge().value()).isEqualTo(0.5);
	}

	@Test
	void longNamesAreTruncatedAndForgottenByTheirFullName() {
		MeterRegistry registry = registry("micrometer");
		ControllerMetrics metrics = metrics(registry, 100);
		ObjectRef long1 = ObjectRef.of("prod", "a".repeat(200) + "1");
		metrics.counter("certificate_renewals_total", long1, "result", "ok").increment();
		assertThat(registry.get("cm.certificate_renewals").tag("name", "a".repeat(128)).counter().count()).isEqualTo(1);
		assertThat(metrics.forget(long1)).isEqualTo(1);
		assertThat(registry.find("cm.certificate_renewals").meters()).isEmpty();
	}

	@Test
	void callingForExpiryMoreOftenThanAnEpochStillRemovesIdleSeries() {
		MeterRegistry registry = registry("micrometer");
		ControllerMetrics metrics = metrics(registry, 100);
		metrics.gauge("certificate_last_seen_timestamp_seconds", ObjectRef.of("prod", "quiet")).set(1);
		int removed = 0;
		for (int second = 10; second <= 12 * 60 && removed == 0; second += 10) {
			this.clock.add(Duration.ofSeconds(10));
			removed = metrics.expireIdleSeries();
			if (second < 10 * 60) {
				assertThat(removed).as("removed at %ss", second).isZero();
			}
		}
		assertThat(removed).isEqualTo(1);
	}

	@Test
	void aSeriesWrittenBetweenTwoEpochsIsNotTakenForIdle() {
		MeterRegistry registry = registry("micrometer");
		ControllerMetrics metrics = metrics(registry, 100);
		MetricGauge gauge = metrics.gauge("certificate_last_seen_timestamp_seconds", ObjectRef.of("prod", "late"));
		// No epoch starts for a long time, then the series is written just before one.
		this.clock.add(Duration.ofHours(1));
		gauge.set(1);
		this.clock.add(Duration.ofMinutes(9));
		assertThat(metrics.expireIdleSeries()).isZero();
		this.clock.add(Duration.ofMinutes(2));
		assertThat(metrics.expireIdleSeries()).isZero();
		this.clock.add(Duration.ofMinutes(10));
		assertThat(metrics.expireIdleSeries()).isEqualTo(1);
	}

	@Test
	void recordsIntoAKnownSeriesWithoutAllocating() {
		ControllerMetrics metrics = metrics(registry("prometheus"), 100);
		ObjectRef web = ObjectRef.of("prod", "web-tls");
		assertThat(Allocations.leastPerCall(
				() -> metrics.counter("certificate_renewals_total", web, "result", "ok").increment(), 100_000, 5))
			.isZero();
		ObjectRef provisioner = ObjectRef.of("Provisioner", "", "default");
		assertThat(Allocations.leastPerCall(() -> metrics.gauge("resource_generation", provisioner).set(1), 100_000, 5))
			.isZero();
		MetricHistogram histogram = metrics.histogram("certificate_issue_seconds", ObjectRef.of("prod", "web-tls"));
		assertThat(Allocations.leastPerCall(() -> histogram.observe(0.75), 100_000, 5)).isZero();
	}

	@ParameterizedTest
	@MethodSource("stacks")
	void noIncrementToALiveSeriesIsLostWhileTheObjectIsForgottenAgainAndAgain(String stack) throws Exception {
		MeterRegistry registry = registry(stack);
		ControllerMetrics metrics = metrics(registry, 100);
		ObjectRef web = ObjectRef.of("prod", "web-tls");
		int writers = 3;
		int after = 5_000;
		AtomicBoolean forgetting = new AtomicBoolean(true);
		CyclicBarrier stopped = new CyclicBarrier(writers + 1);
		CyclicBarrier forgotten = new CyclicBarrier(writers + 1);
		AtomicLong calls = new AtomicLong();
		List<Throwable> errors = new ArrayList<>();
		List<Thread> threads = new ArrayList<>();
		CountDownLatch racing = new CountDownLatch(writers);
		for (int w = 0; w < writers; w++) {
			boolean held = w == 0;
			Thread thread = new Thread(() -> {
				try {
					MetricCounter handle = metrics.counter("certificate_renewals_total", web, "result", "ok");
					racing.countDown();
					while (forgetting.get()) {
						(held ? handle : metrics.counter("certificate_renewals_total", web, "result", "ok"))
							.increment();
						calls.incrementAndGet();
					}
					stopped.await(1, TimeUnit.MINUTES);
					forgotten.await(1, TimeUnit.MINUTES);
					for (int i = 0; i < after; i++) {
						(held ? handle : metrics.counter("certificate_renewals_total", web, "result", "ok"))
							.increment();
					}
				}
				catch (Throwable ex) {
					synchronized (errors) {
						errors.add(ex);
					}
				}
			});
			threads.add(thread);
			thread.start();
		}
		racing.await(1, TimeUnit.MINUTES);
		int removals = 0;
		while (removals < 200 || calls.get() < 10_000) {
			removals += metrics.forget(web);
		}
		forgetting.set(false);
		// Every writer has stopped, and the last removal is over before any records
		// again.
		stopped.await(1, TimeUnit.MINUTES);
		metrics.forget(web);
		forgotten.await(1, TimeUnit.MINUTES);
		for (Thread thread : threads) {
			thread.join(TimeUnit.MINUTES.toMillis(1));
		}
		assertThat(errors).isEmpty();
		assertThat(removals).isGreaterThanOrEqualTo(200);
		assertThat(registry.find("cm.certificate_renewals").meters()).hasSize(1);
		assertThat(registry.get("cm.certificate_renewals").counter().count()).isEqualTo(writers * after);
		assertThat(registry.get("cm.observability.errors").counter().count()).isZero();
	}

	@Test
	void refusesAnObjectForAMetricThatIsNotPerObject() {
		ControllerMetrics metrics = metrics(registry("micrometer"), 100);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> metrics.counter("renewals_total", ObjectRef.of("prod", "web"), "result", "ok"))
			.withMessageContaining("Metric 'renewals_total' is not declared per object")
			.withMessageContaining("perObject()");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> metrics.gauge("resource_generation", ObjectRef.of("prod", "web")))
			.withMessageContaining("carries the object's kind")
			.withMessageContaining("ObjectRef.of(\"Certificate\", \"prod\", \"web-tls\")");
		assertThatIllegalArgumentException().isThrownBy(() -> metrics.forget(null))
			.withMessageContaining("The object to forget is null");
		assertThatIllegalArgumentException().isThrownBy(() -> ObjectRef.of("prod", ""))
			.withMessageContaining("An object's name is empty");
		assertThatIllegalArgumentException().isThrownBy(
				() -> metrics.counter("certificate_renewals_total", "namespace", "prod", "name", "", "result", "ok"))
			.withMessageContaining("Label 'name' of per-object metric 'certificate_renewals_total' is empty");
		assertThatIllegalArgumentException().isThrownBy(
				() -> metrics.gauge("resource_generation", "kind", (String) null, "namespace", "", "name", "default"))
			.withMessageContaining("Label 'kind' of per-object metric 'resource_generation' is null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> metrics.counter("certificate_renewals_total", "name", "web", "result", "ok"))
			.withMessageContaining("Label 'namespace' of metric 'certificate_renewals_total' has no value");
	}

	@Test
	void refusesSettingsThatOnlyAPerObjectMetricTakes() {
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> MetricDefinition.gauge("seen").help("Seen.").timeToLive(Duration.ofMinutes(1)).build())
			.withMessageContaining("time-to-live")
			.withMessageContaining("only a per-object metric has a time to live");
		assertThatExceptionOfType(InvalidMetricDefinitionException.class).isThrownBy(() -> MetricCatalog.of("cm", List
			.of(MetricDefinition.gauge("seen").help("Seen.").perObject().timeToLive(Duration.ofMillis(500)).build())))
			.withMessageContaining("time-to-live = 500ms")
			.withMessageContaining("at least 1 second");
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> MetricCatalog.of("cm",
					List.of(MetricDefinition.gauge("seen").help("Seen.").perObject().labelValues("name", "a").build())))
			.withMessageContaining("label-values.name")
			.withMessageContaining("'name' names the object");
		assertThatExceptionOfType(InvalidMetricDefinitionException.class)
			.isThrownBy(() -> MetricCatalog.of("cm",
					List.of(MetricDefinition.gauge("seen").help("Seen.").labels("name").perObject().build())))
			.withMessageContaining("labels")
			.withMessageContaining("'name' names the object of a per-object metric, and per-object adds it");
		assertThat(MetricDefinition.gauge("seen").help("Seen.").labels("condition").perObject().build().labels())
			.containsExactly("namespace", "name", "condition");
	}

	/** How many values the histogram series of an object counted, 0 if it has none. */
	private static long histogramCount(MeterRegistry registry, String name) {
		if (registry instanceof PrometheusMeterRegistry prometheus) {
			for (MetricSnapshot snapshot : prometheus.getPrometheusRegistry().scrape()) {
				if (snapshot.getMetadata().getPrometheusName().equals("cm_certificate_issue_seconds")) {
					for (DataPointSnapshot point : snapshot.getDataPoints()) {
						if (name.equals(point.getLabels().get("name"))) {
							return ((io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot) point)
								.getCount();
						}
					}
				}
			}
			return 0;
		}
		return registry.find("cm.certificate_issue_seconds")
			.tag("name", name)
			.summaries()
			.stream()
			.mapToLong((summary) -> summary.count())
			.sum();
	}

}
