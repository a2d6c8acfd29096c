package dev.controllerobservability.operations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import dev.controllerobservability.ControllerObservability;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Asynchronous operations without Spring, through the core builder: a
 * {@link CompletionStage} timed from the call to its completion, a {@code Mono} or
 * {@code Flux} from each subscription to its termination, cancellation as an outcome of
 * its own, on each way of recording (Micrometer timers directly, native histograms
 * directly, and through observations as with tracing).
 */
class AsyncOperationsTests {

	private static final String PROVISIONER = "provisioner";

	private static final String COUNT = "karpenter_launch_duration_seconds_count";

	private static final String SUM = "karpenter_launch_duration_seconds_sum";

	private static final String IN_FLIGHT = "karpenter_launch_in_flight";

	private final MockClock clock = new MockClock();

	private final PrometheusRegistry prometheus = new PrometheusRegistry();

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
			this.prometheus, this.clock);

	/** Every observation the observed way started, in order. */
	private final List<Observation.Context> started = new ArrayList<>();

	/** What had happened when each observation stopped. */
	private final List<String> stops = new ArrayList<>();

	/** Where the observed way observes. */
	private final ObservationRegistry observations = ObservationRegistry.create();

	/** How operations are recorded. */
	enum Way {

		/** Straight into Micrometer timers. */
		MICROMETER,

		/** Straight into native histograms. */
		PROMETHEUS,

		/** Through observations, as with a tracing bridge. */
		OBSERVED

	}

	private ControllerObservability observability(Way way) {
		ControllerObservability.Builder builder = ControllerObservability.builder(this.registry)
			.namespace("karpenter")
			.operationTags(PROVISIONER);
		if (way == Way.PROMETHEUS) {
			builder.operationHistograms(this.prometheus);
		}
		if (way == Way.OBSERVED) {
			this.observations.observationConfig().observationHandler(new ObservationHandler<>() {

				@Override
				public boolean supportsContext(Observation.Context context) {
					return true;
				}

				@Override
				public void onStart(Observation.Context context) {
					AsyncOperationsTests.this.started.add(context);
				}

				@Override
				public void onStop(Observation.Context context) {
					AsyncOperationsTests.this.stops.add(context.getContextualName());
				}

			});
			builder.observationRegistry(this.observations);
		}
		ControllerObservability observability = builder.build();
		assertThat(observability.operations().isRecordingDirectly()).isEqualTo(way != Way.OBSERVED);
		return observability;
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void futureIsTimedFromTheCallToItsCompletionAndReturnedUnchanged(Way way) {
		ControllerOperations operations = observability(way).operations();
		CompletableFuture<String> pending = new CompletableFuture<>();
		CompletableFuture<String> returned = operations.observeAsync("launch", gpu(), () -> pending);
		assertThat(returned).isSameAs(pending);
		assertThat(inFlight()).isEqualTo(1);
		assertThat(count("success", "none")).isZero();
		this.clock.add(Duration.ofSeconds(3));
		pending.complete("node-1");
		assertThat(returned).isCompletedWithValue("node-1");
		assertThat(inFlight()).isZero();
		assertThat(count("success", "none")).isEqualTo(1);
		assertThat(sum("success", "none")).isEqualTo(3.0);
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void failedFutureIsAnErrorWithItsCauseUnwrapped(Way way) {
		ControllerOperations operations = observability(way).operations();
		CompletableFuture<String> source = new CompletableFuture<>();
		CompletableFuture<String> chained = operations.observeAsync("launch", gpu(), () -> source.thenApply((value) -> {
			throw new IllegalStateException("no capacity");
		}));
		source.complete("quota");
		assertThat(chained).isCompletedExceptionally();
		CompletableFuture<String> failed = operations.observeAsync("launch", gpu(),
				() -> CompletableFuture.failedFuture(new UnsupportedOperationException("spot gone")));
		assertThat(failed).isCompletedExceptionally();
		assertThat(count("error", "IllegalStateException")).isEqualTo(1);
		assertThat(count("error", "UnsupportedOperationException")).isEqualTo(1);
		assertThat(count("error", "CompletionException")).isZero();
		assertThat(inFlight()).isZero();
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void cancelledFutureHasAnOutcomeOfItsOwn(Way way) {
		ControllerOperations operations = observability(way).operations();
		CompletableFuture<String> pending = operations.observeAsync("launch", gpu(), CompletableFuture::new);
		this.clock.add(Duration.ofSeconds(2));
		pending.cancel(true);
		assertThat(count("cancelled", "none")).isEqualTo(1);
		assertThat(sum("cancelled", "none")).isEqualTo(2.0);
		assertThat(count("error", "CancellationException")).isZero();
		assertThat(count("success", "none")).isZero();
		assertThat(inFlight()).isZero();
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void workThatThrowsOrReturnsNoStageIsAnError(Way way) {
		ControllerOperations operations = observability(way).operations();
		IllegalStateException failure = new IllegalStateException("quota");
		assertThatIllegalStateException().isThrownBy(() -> operations.observeAsync("launch", gpu(), () -> {
			throw failure;
		})).isSameAs(failure);
		CompletionStage<String> none = operations.observeAsync("launch", gpu(), () -> null);
		assertThat(none).isNull();
		assertThat(count("error", "IllegalStateException")).isEqualTo(1);
		assertThat(count("error", "NullPointerException")).isEqualTo(1);
		assertThat(inFlight()).isZero();
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void boundHandleTimesFuturesAndPublishersIntoTheSameSeries(Way way) {
		ControllerOperations operations = observability(way).operations();
		OperationHandle handle = operations.bind("launch", gpu());
		CompletableFuture<String> pending = new CompletableFuture<>();
		handle.observeAsync(() -> pending);
		this.clock.add(Duration.ofSeconds(1));
		pending.complete("node");
		StepVerifier.create(ReactiveOperations.of(operations).observe(handle, Mono.just("node")))
			.expectNext("node")
			.verifyComplete();
		StepVerifier.create(ReactiveOperations.of(operations).observe(handle, Flux.just(1, 2, 3)))
			.expectNext(1, 2, 3)
			.verifyComplete();
		assertThat(count("success", "none")).isEqualTo(3);
		assertThat(sum("success", "none")).isEqualTo(1.0);
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void monoIsTimedFromSubscriptionNotAssembly(Way way) {
		ReactiveOperations reactive = ReactiveOperations.of(observability(way).operations());
		Sinks.One<String> node = Sinks.one();
		Mono<String> launch = reactive.observe("launch", gpu(), node.asMono());
		this.clock.add(Duration.ofSeconds(10));
		assertThat(inFlight()).isZero();
		AtomicReference<String> received = new AtomicReference<>();
		launch.subscribe(received::set);
		assertThat(inFlight()).isEqualTo(1);
		this.clock.add(Duration.ofSeconds(4));
		node.tryEmitValue("node-1");
		assertThat(received).hasValue("node-1");
		assertThat(inFlight()).isZero();
		assertThat(count("success", "none")).isEqualTo(1);
		assertThat(sum("success", "none")).isEqualTo(4.0);
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void eachSubscriptionIsOneCallIncludingResubscriptionAndRetry(Way way) {
		ReactiveOperations reactive = ReactiveOperations.of(observability(way).operations());
		AtomicInteger attempts = new AtomicInteger();
		Mono<String> flaky = Mono.fromCallable(() -> {
			if (attempts.incrementAndGet() < 3) {
				throw new IllegalStateException("attempt " + attempts.get());
			}
			return "node";
		});
		Mono<String> observed = reactive.observe("launch", gpu(), flaky);
		// retry() downstream subscribes again: three calls, two failed.
		StepVerifier.create(observed.retry(2)).expectNext("node").verifyComplete();
		assertThat(count("error", "IllegalStateException")).isEqualTo(2);
		assertThat(count("success", "none")).isEqualTo(1);
		// A second subscription to the same Mono is one more call.
		StepVerifier.create(observed).expectNext("node").verifyComplete();
		assertThat(count("success", "none")).isEqualTo(2);
		// retry() inside the observed publisher is part of its one call.
		attempts.set(0);
		StepVerifier.create(reactive.observe("launch", gpu(), flaky.retry(2))).expectNext("node").verifyComplete();
		assertThat(count("success", "none")).isEqualTo(3);
		assertThat(count("error", "IllegalStateException")).isEqualTo(2);
		assertThat(inFlight()).isZero();
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void fluxIsOneCallFromSubscriptionToCompletionNeverOnePerElement(Way way) {
		ReactiveOperations reactive = ReactiveOperations.of(observability(way).operations());
		Sinks.Many<Integer> nodes = Sinks.many().unicast().onBackpressureBuffer();
		List<Integer> received = new ArrayList<>();
		reactive.observe("launch", gpu(), nodes.asFlux()).subscribe(received::add);
		for (int i = 0; i < 5; i++) {
			this.clock.add(Duration.ofSeconds(1));
			nodes.tryEmitNext(i);
		}
		assertThat(received).containsExactly(0, 1, 2, 3, 4);
		assertThat(count("success", "none")).isZero();
		assertThat(inFlight()).isEqualTo(1);
		nodes.tryEmitComplete();
		assertThat(count("success", "none")).isEqualTo(1);
		assertThat(sum("success", "none")).isEqualTo(5.0);
		StepVerifier.create(reactive.observe("launch", gpu(), Flux.<Integer>error(new IllegalStateException("x"))))
			.verifyError(IllegalStateException.class);
		assertThat(count("error", "IllegalStateException")).isEqualTo(1);
		assertThat(inFlight()).isZero();
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void cancelledSubscriptionIsCancelledAndEmptyMonoIsASuccess(Way way) {
		ReactiveOperations reactive = ReactiveOperations.of(observability(way).operations());
		StepVerifier.create(reactive.observe("launch", gpu(), Flux.range(0, 10)).take(2))
			.expectNext(0, 1)
			.verifyComplete();
		StepVerifier.create(reactive.observe("launch", gpu(), Mono.never())).thenCancel().verify();
		assertThat(count("cancelled", "none")).isEqualTo(2);
		StepVerifier.create(reactive.observe("launch", gpu(), Mono.empty())).verifyComplete();
		assertThat(count("success", "none")).isEqualTo(1);
		assertThat(count("error", "none")).isZero();
		assertThat(inFlight()).isZero();
	}

	@ParameterizedTest
	@EnumSource(Way.class)
	void nullPublisherOrHandleIsRefusedAtTheCallWithNothingInFlight(Way way) {
		ControllerOperations operations = observability(way).operations();
		ReactiveOperations reactive = ReactiveOperations.of(operations);
		OperationHandle handle = operations.bind("launch", gpu());
		assertThatNullPointerException().isThrownBy(() -> reactive.observe("launch", gpu(), (Mono<String>) null))
			.withMessage("work is null: pass the Mono or Flux to time as operation launch, not null");
		assertThatNullPointerException().isThrownBy(() -> reactive.observe("launch", gpu(), (Flux<String>) null));
		assertThatNullPointerException().isThrownBy(() -> reactive.observe(handle, (Mono<String>) null));
		assertThatNullPointerException().isThrownBy(() -> reactive.observe(handle, (Flux<String>) null));
		assertThatNullPointerException().isThrownBy(() -> reactive.observe((OperationHandle) null, Mono.just(1)))
			.withMessageContaining("handle is null");
		assertThat(inFlight()).isZero();
		assertThat(this.started).isEmpty();
	}

	@Test
	void observationSpansTheAsynchronousWorkAndIsTheParentUpstream() {
		ControllerObservability observability = observability(Way.OBSERVED);
		ReactiveOperations reactive = ReactiveOperations.of(observability.operations());
		Sinks.One<String> node = Sinks.one();
		AtomicReference<Object> seenUpstream = new AtomicReference<>();
		Mono<String> work = Mono.deferContextual((context) -> {
			seenUpstream.set(context.getOrDefault(ReactiveOperations.OBSERVATION_KEY, null));
			return node.asMono();
		});
		Observation parent = Observation.start("reconcile", ObservationRegistry.create());
		reactive.observe("launch", gpu(), work)
			.doOnSuccess((value) -> this.stops.add("subscriber saw " + value))
			.contextWrite((context) -> context.put(ReactiveOperations.OBSERVATION_KEY, parent))
			.subscribe();
		assertThat(this.started).singleElement().satisfies((context) -> {
			assertThat(context).isInstanceOf(OperationRecorder.Context.class);
			assertThat(context.getParentObservation()).isSameAs(parent);
		});
		Observation launch = (Observation) seenUpstream.get();
		assertThat(launch.getContextView()).isSameAs(this.started.get(0));
		assertThat(this.stops).isEmpty();
		node.tryEmitValue("node-1");
		// Stopped when the work ended, before the subscriber had the value.
		assertThat(this.stops).containsExactly("launch", "subscriber saw node-1");
		assertThat(this.started.get(0).getLowCardinalityKeyValue("result").getValue()).isEqualTo("success");
	}

	@Test
	void cancelledObservationCarriesTheCancelledResultAndNoError() {
		ReactiveOperations reactive = ReactiveOperations.of(observability(Way.OBSERVED).operations());
		StepVerifier.create(reactive.observe("launch", gpu(), Mono.never())).thenCancel().verify();
		assertThat(this.started).singleElement().satisfies((context) -> {
			assertThat(context.getLowCardinalityKeyValue("result").getValue()).isEqualTo("cancelled");
			assertThat(context.getError()).isNull();
		});
	}

	@Test
	void futureObservationIsCurrentWhileTheWorkStartsAndStopsAtCompletion() {
		ControllerObservability observability = observability(Way.OBSERVED);
		AtomicReference<Observation> current = new AtomicReference<>();
		CompletableFuture<String> pending = new CompletableFuture<>();
		observability.operations().observeAsync("launch", gpu(), () -> {
			current.set(this.observations.getCurrentObservation());
			return pending;
		});
		assertThat(current.get().getContextView()).isSameAs(this.started.get(0));
		assertThat(this.observations.getCurrentObservation()).isNull();
		assertThat(this.stops).isEmpty();
		pending.complete("node");
		assertThat(this.stops).containsExactly("launch");
	}

	@Test
	void failingObservationHandlersNeverChangeSignalsOrResults() {
		ObservationRegistry throwing = ObservationRegistry.create();
		throwing.observationConfig().observationHandler(new FailureIsolationTests.ThrowingHandler());
		ControllerObservability observability = ControllerObservability.builder(this.registry)
			.namespace("karpenter")
			.observationRegistry(throwing)
			.build();
		assertSignalsAndResultsUnchanged(observability);
		// A scope whose opening failed is not left current on this thread.
		assertThat(throwing.getCurrentObservation()).isNull();
	}

	@Test
	void failingRegistryNeverChangesSignalsOrResults() {
		this.registry.config().meterFilter(new MeterFilter() {

			@Override
			public Meter.Id map(Meter.Id id) {
				if (id.getName().startsWith("karpenter.launch")) {
					throw new IllegalStateException("registry is broken");
				}
				return id;
			}

		});
		ControllerObservability observability = ControllerObservability.builder(this.registry)
			.namespace("karpenter")
			.build();
		assertThat(observability.operations().isRecordingDirectly()).isTrue();
		assertSignalsAndResultsUnchanged(observability);
	}

	private static void assertSignalsAndResultsUnchanged(ControllerObservability observability) {
		ControllerOperations operations = observability.operations();
		ReactiveOperations reactive = ReactiveOperations.of(operations);
		IllegalStateException failure = new IllegalStateException("no capacity");
		StepVerifier.create(reactive.observe("launch", Tags.empty(), Mono.just("node")))
			.expectNext("node")
			.verifyComplete();
		StepVerifier.create(reactive.observe("launch", Tags.empty(), Mono.error(failure)))
			.expectErrorSatisfies((error) -> assertThat(error).isSameAs(failure))
			.verify();
		StepVerifier.create(reactive.observe("launch", Tags.empty(), Flux.just(1, 2)))
			.expectNext(1, 2)
			.verifyComplete();
		StepVerifier.create(reactive.observe("launch", Tags.empty(), Mono.never())).thenCancel().verify();
		CompletableFuture<String> done = operations.observeAsync("launch", Tags.empty(),
				() -> CompletableFuture.completedFuture("node"));
		assertThat(done).isCompletedWithValue("node");
		CompletableFuture<String> failed = operations.observeAsync("launch", Tags.empty(),
				() -> CompletableFuture.failedFuture(failure));
		assertThat(failed).isCompletedExceptionally();
		assertThat(failed.handle((value, error) -> error).join()).isSameAs(failure);
		assertThat(observability.failures().count()).isPositive();
	}

	private static Tags gpu() {
		return Tags.of(PROVISIONER, "gpu");
	}

	private double count(String result, String error) {
		return value(COUNT, result, error);
	}

	private double sum(String result, String error) {
		return value(SUM, result, error);
	}

	private double value(String name, String result, String error) {
		Map<String, String> labels = new HashMap<>(Map.of(PROVISIONER, "gpu", "result", result, "error", error));
		PrometheusScrape scrape = PrometheusScrape.parse(this.registry.scrape());
		return scrape.samples(name)
			.stream()
			.filter((sample) -> sample.labels().equals(labels))
			.mapToDouble(PrometheusScrape.Sample::value)
			.sum();
	}

	/** The in-flight gauge, 0 before the series exists. */
	private double inFlight() {
		return PrometheusScrape.parse(this.registry.scrape())
			.samples(IN_FLIGHT)
			.stream()
			.filter((sample) -> sample.labels().equals(Map.of(PROVISIONER, "gpu")))
			.mapToDouble(PrometheusScrape.Sample::value)
			.sum();
	}

}
