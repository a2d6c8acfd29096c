package dev.controllerobservability.operations;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.test.ExceptionClasses;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatRuntimeException;

/**
 * The cardinality limits of operations, on both recording backends: the {@code error}
 * label obeys the per-label cap, the per-metric series cap counts label sets with
 * {@code result} and {@code error}, so one operation's scrape stays within the documented
 * bound, and the self-metrics count every call, also through handles and remembered tags.
 */
class OperationCardinalityTests {

	/** More exception classes than the per-label cap lets through. */
	private static final int EXCEPTION_CLASSES = CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES + 100;

	/** Exception classes each tag set of the scrape-size attack throws. */
	private static final int FAILURES_PER_TAG_SET = 5;

	/**
	 * The documented bound of one operation's scrape text, in characters, with label
	 * values of up to 17 characters and exception names of 10. Measured: 6.1 million
	 * characters with Micrometer timers, 6.0 million with the prometheus backend.
	 */
	private static final int SHORT_VALUES_SCRAPE_BOUND = 6_500_000;

	/**
	 * The documented bound of one operation's scrape text, in characters, with every
	 * label value at the longest kept (128 characters). Measured: 20.6 million characters
	 * with Micrometer timers, 20.2 million with the prometheus backend.
	 */
	private static final int LONGEST_VALUES_SCRAPE_BOUND = 21_000_000;

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private static final List<RuntimeException> exceptions = ExceptionClasses.distinct(EXCEPTION_CLASSES);

	@ParameterizedTest(name = "prometheus backend: {0}")
	@ValueSource(booleans = { false, true })
	void capsTheErrorLabelAtTheMostLabelValues(boolean prometheusBackend) {
		ControllerOperations operations = build(prometheusBackend, "provisioner");
		Tags tags = Tags.of("provisioner", "gpu");
		for (RuntimeException exception : exceptions) {
			fail(operations, tags, exception);
		}
		PrometheusScrape scrape = scrape();
		Set<String> errors = new HashSet<>();
		scrape.samples("karpenter_bind_duration_seconds_count")
			.forEach((sample) -> errors.add(sample.labels().get("error")));
		assertThat(errors).hasSize(CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES + 1).contains("unexpected");
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "gpu", "result", "error", "error", "unexpected")))
			.isEqualTo(EXCEPTION_CLASSES - CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES);
		assertThat(scrape.value("karpenter_cardinality_enforcement_unexpected_categorizations_total", Map.of()))
			.isEqualTo(EXCEPTION_CLASSES - CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES);
	}

	@ParameterizedTest(name = "prometheus backend: {0}, longest values: {1}")
	@CsvSource({ "false, false", "true, false", "false, true", "true, true" })
	void boundsOneOperationsScrapeWithManyTagSetsAndExceptionClasses(boolean prometheusBackend, boolean longestValues) {
		ControllerOperations operations = build(prometheusBackend, "provisioner", "zone");
		List<RuntimeException> failures = longestValues ? ExceptionClasses.withLongestNames(FAILURES_PER_TAG_SET)
				: exceptions.subList(0, FAILURES_PER_TAG_SET);
		String before = this.registry.scrape();
		// 33 x 32 = 1,056 tag sets, more than the series cap, each with a success and
		// five exception classes: 6,336 label sets without the caps.
		for (int p = 0; p < 33; p++) {
			for (int z = 0; z < 32; z++) {
				Tags tags = Tags.of("provisioner", value("provisioner-" + p, longestValues), "zone",
						value("us-east-1-zone-" + z, longestValues));
				operations.observe("bind", tags, () -> {
				});
				for (RuntimeException exception : failures) {
					fail(operations, tags, exception);
				}
			}
		}
		String text = this.registry.scrape();
		PrometheusScrape scrape = PrometheusScrape.parse(text);
		int bound = CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC + 1;
		assertThat(scrape.samples("karpenter_bind_duration_seconds_count")).hasSize(bound);
		assertThat(scrape.samples("karpenter_bind_in_flight")).hasSize(bound);
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "overflow", "zone", "overflow", "result", "overflow", "error", "overflow")))
			.isEqualTo(33 * 32 * (FAILURES_PER_TAG_SET + 1) - CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC);
		// The 40 default buckets and +Inf, and the _max gauge where there is one.
		assertThat(scrape.samples("karpenter_bind_duration_seconds_bucket")).hasSize(41 * bound);
		assertThat(scrape.samples("karpenter_bind_duration_seconds_max")).hasSize(prometheusBackend ? 0 : bound);
		int size = text.length() - before.length();
		assertThat(size).as("scrape size of one operation in characters")
			.isLessThan(longestValues ? LONGEST_VALUES_SCRAPE_BOUND : SHORT_VALUES_SCRAPE_BOUND);
	}

	@ParameterizedTest(name = "prometheus backend: {0}")
	@ValueSource(booleans = { false, true })
	void countsEveryCallRecordedIntoTheOverflowSeriesThroughAHandle(boolean prometheusBackend) {
		ControllerOperations operations = build(prometheusBackend, "provisioner", "zone");
		for (int i = 0; i < CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC; i++) {
			operations.observe("bind", Tags.of("provisioner", "p" + (i / 100), "zone", "z" + (i % 100)), () -> {
			});
		}
		OperationHandle handle = operations.bind("bind", Tags.of("provisioner", "late", "zone", "late"));
		Tags reused = Tags.of("provisioner", "later", "zone", "later");
		for (int i = 0; i < 1000; i++) {
			handle.observe(() -> {
			});
			operations.observe("bind", reused, () -> {
			});
		}
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("karpenter_cardinality_enforcement_series_overflows_total", Map.of())).isEqualTo(2000);
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "overflow", "zone", "overflow", "result", "overflow", "error", "overflow")))
			.isEqualTo(2000);
	}

	@ParameterizedTest(name = "prometheus backend: {0}")
	@ValueSource(booleans = { false, true })
	void countsEveryCallRecordedWithAnUnexpectedValueThroughAHandle(boolean prometheusBackend) {
		ControllerOperations operations = build(prometheusBackend, "provisioner");
		for (int i = 0; i < CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES; i++) {
			operations.observe("bind", Tags.of("provisioner", "p" + i), () -> {
			});
		}
		OperationHandle handle = operations.bind("bind", Tags.of("provisioner", "late"));
		Tags reused = Tags.of("provisioner", "later");
		RuntimeException beyondTheCap = exceptions.get(0);
		for (int i = 0; i < CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES; i++) {
			fail(operations, Tags.of("provisioner", "p0"), exceptions.get(i + 1));
		}
		for (int i = 0; i < 1000; i++) {
			handle.observe(() -> {
			});
			operations.observe("bind", reused, () -> {
			});
			fail(operations, Tags.of("provisioner", "p0"), beyondTheCap);
		}
		PrometheusScrape scrape = scrape();
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "unexpected", "result", "success", "error", "none")))
			.isEqualTo(2000);
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "p0", "result", "error", "error", "unexpected")))
			.isEqualTo(1000);
		assertThat(scrape.value("karpenter_cardinality_enforcement_unexpected_categorizations_total", Map.of()))
			.isEqualTo(3000);
	}

	/** A tag value, padded to the longest value kept if asked. */
	private static String value(String value, boolean longest) {
		return longest ? value + "x".repeat(ExceptionClasses.LONGEST_NAME - value.length()) : value;
	}

	@ParameterizedTest(name = "prometheus backend: {0}")
	@ValueSource(booleans = { false, true })
	void countsEveryCallOfAnOperationBeyondTheMostOperationsThroughAHandle(boolean prometheusBackend) {
		ControllerObservability observability = observability(prometheusBackend);
		ControllerOperations operations = observability.operations();
		for (int i = 0; i < ControllerOperations.DEFAULT_MAX_OPERATIONS; i++) {
			operations.observe("operation-" + i, Tags.empty(), () -> {
			});
		}
		OperationHandle refused = operations.bind("one-too-many", Tags.empty());
		OperationHandle invalid = operations.bind("3 bad", Tags.empty());
		int[] runs = new int[1];
		for (int i = 0; i < 10; i++) {
			refused.observe(() -> runs[0]++);
			invalid.observe(() -> runs[0]++);
		}
		assertThat(refused.isRecorded()).isFalse();
		assertThat(invalid.isRecorded()).isFalse();
		assertThat(runs[0]).isEqualTo(20);
		assertThat(observability.failures().count()).isEqualTo(20);
		assertThat(scrape().families()).doesNotContain("karpenter_one_too_many_duration_seconds");
	}

	private ControllerOperations build(boolean prometheusBackend, String... tags) {
		return observability(prometheusBackend, tags).operations();
	}

	private ControllerObservability observability(boolean prometheusBackend, String... tags) {
		ControllerObservability.Builder builder = ControllerObservability.builder(this.registry)
			.namespace("karpenter")
			.operationTags(tags);
		if (prometheusBackend) {
			builder.operationHistograms(this.registry.getPrometheusRegistry());
		}
		return builder.build();
	}

	private static void fail(ControllerOperations operations, Tags tags, RuntimeException exception) {
		assertThatRuntimeException().isThrownBy(() -> operations.observe("bind", tags, (Runnable) () -> {
			throw exception;
		})).isSameAs(exception);
	}

	private PrometheusScrape scrape() {
		return PrometheusScrape.parse(this.registry.scrape());
	}

}
