package dev.controllerobservability.operations;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.internal.test.Allocations;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The direct recording path records what the observation path records, and allocates
 * nothing (pre-bound handle) or next to nothing (a call with known tags) per operation.
 * Allocation is measured with the thread allocation counter, so a change that brings
 * allocation back fails here; speed is measured by the JMH benchmarks, not here.
 */
class DirectRecordingTests {

	private static final int CALLS = 100_000;

	private static final int ROUNDS = 5;

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final RecordingFailures failures = new RecordingFailures(this.registry, "karpenter", Duration.ofHours(1));

	private final OperationRecorder handler;

	private final ObservationRegistry observations = ObservationRegistry.create();

	DirectRecordingTests() {
		this.registry.config().meterFilter(new ControllerMeterFilter(NamingPolicy.builder("karpenter").build()));
		this.handler = new OperationRecorder(this.registry, this.failures);
		this.observations.observationConfig().observationHandler(this.handler);
	}

	@Test
	void findsEachRememberedLabelSetByItsOwnTagsOrEqualOnesWhereverTheirLookupsMeet() {
		ControllerOperations operations = operations(true);
		// More label sets than the table of last lookups has places, so that many meet.
		int labelSets = 3000;
		List<Tags> tags = new java.util.ArrayList<>();
		for (int i = 0; i < labelSets; i++) {
			tags.add(Tags.of("provisioner", "p" + i));
		}
		for (int round = 0; round < 3; round++) {
			for (int i = 0; i < labelSets; i++) {
				Tags given = (round == 2) ? Tags.of("provisioner", "p" + i) : tags.get(i);
				operations.observe((i % 2 == 0) ? "bind" : "launch", given, () -> "done");
			}
		}
		for (int i = 0; i < labelSets; i++) {
			assertThat(this.registry.get((i % 2 == 0) ? "karpenter.bind.duration" : "karpenter.launch.duration")
				.tags("provisioner", "p" + i, "result", "success")
				.timer()
				.count()).as("calls of label set %d", i).isEqualTo(3);
		}
		assertThat(this.failures.count()).isZero();
	}

	@Test
	void recordsTheSameSeriesAsTheObservationPath() {
		ControllerOperations direct = operations(true);
		ControllerOperations observed = operations(false);
		Tags gpu = Tags.of("provisioner", "gpu");
		for (ControllerOperations operations : List.of(direct, observed)) {
			assertThat(operations.observe("bind", gpu, () -> "bound")).isEqualTo("bound");
			assertThatIllegalStateException().isThrownBy(() -> operations.observe("bind", gpu, (Runnable) () -> {
				throw new IllegalStateException("node gone");
			}));
		}
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "gpu", "result", "success", "error", "none")))
			.isEqualTo(2.0);
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "gpu", "result", "error", "error", "IllegalStateException")))
			.isEqualTo(2.0);
		assertThat(scrape.value("karpenter_bind_in_flight", Map.of("provisioner", "gpu"))).isEqualTo(0.0);
		assertThat(this.failures.count()).isZero();
	}

	@Test
	void aPreBoundHandleAllocatesNothingPerOperation() {
		OperationHandle handle = operations(true).bind("bind", Tags.of("provisioner", "gpu"));
		Supplier<String> work = () -> "bound";
		double bytesPerCall = allocatedPerCall(() -> handle.observe(work));
		assertThat(bytesPerCall).as("bytes allocated per handle.observe").isLessThan(0.01);
		assertThat(PrometheusScrape.parse(this.registry.scrape())
			.value("karpenter_bind_duration_seconds_count",
					Map.of("provisioner", "gpu", "result", "success", "error", "none")))
			.isEqualTo((ROUNDS + 1.0) * CALLS);
	}

	@Test
	void aCallWithKnownTagsAllocatesAtMost64BytesPerOperation() {
		ControllerOperations operations = operations(true);
		Tags[] provisioners = new Tags[50];
		for (int i = 0; i < provisioners.length; i++) {
			provisioners[i] = Tags.of("provisioner", "p" + i);
		}
		Supplier<String> work = () -> "bound";
		int[] next = { 0 };
		double bytesPerCall = allocatedPerCall(() -> {
			operations.observe("bind", provisioners[next[0]], work);
			next[0] = (next[0] + 1) % provisioners.length;
		});
		assertThat(bytesPerCall).as("bytes allocated per observe").isLessThanOrEqualTo(64);
		// The counter does see allocation: the observation path allocates per call.
		ControllerOperations observed = operations(false);
		assertThat(allocatedPerCall(() -> observed.observe("bind", provisioners[0], work)))
			.as("bytes allocated per observe through an observation")
			.isGreaterThan(64);
	}

	@Test
	void leavesOperationsThePredicatesSwitchOffToTheObservation() {
		ControllerOperations operations = ControllerOperations.builder(this.observations, this.failures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter")
			.directRecording(this.handler, List.of((name, context) -> !name.equals("karpenter.bind")))
			.build();
		this.observations.observationConfig().observationPredicate((name, context) -> !name.equals("karpenter.bind"));
		assertThat(operations.observe("bind", Tags.of("provisioner", "gpu"), () -> "bound")).isEqualTo("bound");
		assertThat(operations.observe("launch", Tags.of("provisioner", "gpu"), () -> "launched")).isEqualTo("launched");
		String scrape = this.registry.scrape();
		assertThat(scrape).doesNotContain("karpenter_bind_duration_seconds")
			.contains("karpenter_launch_duration_seconds");
	}

	@Test
	void neverBreaksTheCallerWhenTheRegistryFails() {
		PrometheusMeterRegistry broken = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		RecordingFailures brokenFailures = new RecordingFailures(broken, "karpenter", Duration.ofHours(1));
		broken.config().meterFilter(new MeterFilter() {
			@Override
			public Meter.Id map(Meter.Id id) {
				if (id.getName().startsWith("karpenter.bind")) {
					throw new IllegalStateException("registry is broken");
				}
				return id;
			}
		});
		OperationRecorder brokenHandler = new OperationRecorder(broken, brokenFailures);
		ControllerOperations operations = ControllerOperations.builder(ObservationRegistry.create(), brokenFailures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter")
			.directRecording(brokenHandler, List.of())
			.build();
		assertThat(operations.observe("bind", Tags.of("provisioner", "gpu"), () -> "bound")).isEqualTo("bound");
		IllegalStateException nodeGone = new IllegalStateException("node gone");
		assertThatIllegalStateException()
			.isThrownBy(() -> operations.observe("bind", Tags.of("provisioner", "gpu"), (Runnable) () -> {
				throw nodeGone;
			}))
			.isSameAs(nodeGone);
		assertThat(brokenFailures.count()).isEqualTo(2);
	}

	@Test
	void remembersHandlesOnlyForTagsNoLongerThanTheLimiterKeeps() {
		CardinalityLimiter limiter = CardinalityLimiter.builder(this.registry, "karpenter")
			.maxLabelValueLength(16)
			.build();
		ControllerOperations operations = ControllerOperations.builder(this.observations, this.failures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter")
			.cardinalityLimiter(limiter)
			.directRecording(this.handler, List.of())
			.build();
		String huge = "x".repeat(100_000);
		for (int i = 0; i < 100; i++) {
			operations.observe("bind", Tags.of("provisioner", huge + i), () -> "bound");
		}
		Tags fitting = Tags.of("provisioner", "gpu");
		operations.observe("bind", fitting, () -> "bound");
		assertThat(operations.cachedTags("bind")).containsExactly(fitting);
		// The 100 long values were truncated to one value, recorded 100 times.
		assertThat(this.registry.get("karpenter.bind.duration")
			.tags("provisioner", "x".repeat(16), "result", "success")
			.timer()
			.count()).isEqualTo(100);
	}

	private ControllerOperations operations(boolean direct) {
		ControllerOperations.Builder builder = ControllerOperations.builder(this.observations, this.failures)
			.labelKeys(List.of("provisioner"))
			.namespace("karpenter");
		if (direct) {
			builder.directRecording(this.handler, List.of());
		}
		return builder.build();
	}

	/**
	 * Runs the call {@value #CALLS} times to warm up, then {@value #ROUNDS} rounds of
	 * {@value #CALLS} more.
	 */
	private static double allocatedPerCall(Runnable call) {
		return Allocations.leastPerCall(call, CALLS, ROUNDS);
	}

}
