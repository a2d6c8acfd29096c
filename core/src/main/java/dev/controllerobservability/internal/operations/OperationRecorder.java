package dev.controllerobservability.internal.operations;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.operations.OperationDescriptor;

/**
 * Times operation calls and records them: a duration histogram
 * ({@code <namespace>[_<subsystem>]_<operation>_duration_seconds} with the operation's
 * labels plus {@code result} and {@code error}, through {@link OperationDurations}) and
 * an in-flight gauge ({@code <...>_in_flight}), one {@link Series} per label set.
 * <p>
 * A call is timed either directly (the clock read twice, the series reached through its
 * {@link OperationResolver.Resolved}, nothing allocated) or through an observation, so
 * that tracing sees it too. As the meter handler of those observations, ordered ahead of
 * Micrometer's {@code DefaultMeterObservationHandler}, it replaces that handler for
 * {@link Context}s only: no duplicate timer and no {@code .active} long task timer.
 * <p>
 * The cardinality limits apply to outcomes here, where both ways meet: the {@code error}
 * label passes the per-label limits of the duration histogram, and the histogram's series
 * cap counts label sets with {@code result} and {@code error}; beyond it an outcome is
 * recorded into the series whose every label is {@code overflow}. Every call recorded
 * with a value {@code unexpected} or into the overflow series is counted. Recording never
 * throws into the caller: failures go to {@link RecordingFailures}.
 */
public final class OperationRecorder implements MeterObservationHandler<OperationRecorder.Context> {

	/** The start time of a call whose clock failed: nothing is recorded for it. */
	private static final long NOT_STARTED = Long.MIN_VALUE;

	private final @Nullable MeterRegistry registry;

	private final @Nullable Clock clock;

	private final @Nullable OperationDurations durations;

	private final @Nullable CardinalityLimiter limiter;

	private final RecordingFailures failures;

	private final Map<String, Map<Tags, Series>> series;

	/** Where calls are observed, or {@code null} for the handler registered there. */
	private final @Nullable ObservationRegistry observations;

	/**
	 * The observation registry's predicates when calls are recorded directly, or
	 * {@code null} when they go through observations.
	 */
	private final @Nullable List<ObservationPredicate> directPredicates;

	/**
	 * Creates a recorder that records durations as Micrometer timers.
	 * @param registry where the meters go
	 * @param failures where recording failures go
	 */
	public OperationRecorder(MeterRegistry registry, RecordingFailures failures) {
		this(registry, OperationDurations.micrometer(registry), failures, null);
	}

	/**
	 * Creates a recorder, to register as the observation handler of operations.
	 * @param registry where the in-flight gauges go, whose clock times operations
	 * @param durations where the durations go
	 * @param failures where recording failures go
	 * @param limiter the limits the {@code error} label and the label sets of outcomes
	 * pass, the same as the operations' own, or {@code null} for none
	 */
	public OperationRecorder(MeterRegistry registry, OperationDurations durations, RecordingFailures failures,
			@Nullable CardinalityLimiter limiter) {
		this(registry, durations, failures, limiter, new ConcurrentHashMap<>(), null, null);
	}

	private OperationRecorder(@Nullable MeterRegistry registry, @Nullable OperationDurations durations,
			RecordingFailures failures, @Nullable CardinalityLimiter limiter, Map<String, Map<Tags, Series>> series,
			@Nullable ObservationRegistry observations, @Nullable List<ObservationPredicate> directPredicates) {
		this.registry = registry;
		this.clock = (registry != null) ? registry.config().clock() : null;
		this.durations = durations;
		this.failures = failures;
		this.limiter = limiter;
		this.series = series;
		this.observations = observations;
		this.directPredicates = (directPredicates != null) ? List.copyOf(directPredicates) : null;
	}

	/**
	 * A recorder that times every call through observations and has no meters of its own:
	 * the handler registered with {@code observations} records them.
	 * @param observations where calls are observed
	 * @param failures where recording failures go
	 * @return the recorder
	 */
	public static OperationRecorder observing(ObservationRegistry observations, RecordingFailures failures) {
		return new OperationRecorder(null, null, failures, null, new ConcurrentHashMap<>(), observations, null);
	}

	/**
	 * This recorder's meters, timing calls straight into them. Use it only when no
	 * handler but this one would see operation observations: no tracing, no other
	 * handler. Operations the predicates switch off by name keep going through the (then
	 * no-op) observation.
	 * @param observations where calls the predicates switch off are observed
	 * @param predicates the observation registry's predicates
	 * @return a recorder sharing this one's series
	 */
	public OperationRecorder recordingDirectly(ObservationRegistry observations,
			List<ObservationPredicate> predicates) {
		return new OperationRecorder(this.registry, this.durations, this.failures, this.limiter, this.series,
				observations, predicates);
	}

	/**
	 * Whether calls are recorded straight into the meters rather than through
	 * observations.
	 * @return whether this recorder was made by {@link #recordingDirectly}
	 */
	public boolean isRecordingDirectly() {
		return this.directPredicates != null;
	}

	/**
	 * Where the durations are recorded.
	 * @return the durations backend, or {@code null} for a recorder without meters
	 */
	public @Nullable OperationDurations durations() {
		return this.durations;
	}

	/**
	 * Finds a handle's series ahead of its first call; a failure is recorded, and the
	 * handle's calls then go through observations.
	 * @param call the handle's call
	 */
	public void prepare(OperationResolver.Resolved call) {
		if (call.isRecorded() && this.directPredicates != null && directSeries(call) == null) {
			call.observed = true;
		}
	}

	// The three observe methods time the work each in its own words: one of them
	// adapting the others' work with a lambda would allocate on every call.

	/**
	 * Times {@code work}.
	 * @param <T> the result type
	 * @param call the resolved call
	 * @param work the work to time
	 * @return what {@code work} returned
	 */
	public <T> T observe(OperationResolver.Resolved call, Supplier<T> work) {
		Series series = route(call);
		if (series == null) {
			return (call.descriptor == null) ? work.get() : observeThrough(call, work::get);
		}
		long start = start(call, series);
		T result;
		try {
			result = work.get();
		}
		catch (Throwable ex) {
			stop(call, series, start, ex);
			throw ex;
		}
		stop(call, series, start, null);
		return result;
	}

	/**
	 * Times {@code work}.
	 * @param call the resolved call
	 * @param work the work to time
	 */
	public void observe(OperationResolver.Resolved call, Runnable work) {
		Series series = route(call);
		if (series == null) {
			if (call.descriptor == null) {
				work.run();
				return;
			}
			observeThrough(call, () -> {
				work.run();
				return null;
			});
			return;
		}
		long start = start(call, series);
		try {
			work.run();
		}
		catch (Throwable ex) {
			stop(call, series, start, ex);
			throw ex;
		}
		stop(call, series, start, null);
	}

	/**
	 * Times work that may throw a checked exception, which is rethrown unchanged.
	 * @param <T> the result type
	 * @param <E> the checked exception type
	 * @param call the resolved call
	 * @param work the work to time
	 * @return what {@code work} returned
	 * @throws E what {@code work} threw
	 */
	public <T, E extends Throwable> T observeChecked(OperationResolver.Resolved call,
			Observation.CheckedCallable<T, E> work) throws E {
		Series series = route(call);
		if (series == null) {
			return (call.descriptor == null) ? work.call() : observeThrough(call, work);
		}
		long start = start(call, series);
		T result;
		try {
			result = work.call();
		}
		catch (Throwable ex) {
			stop(call, series, start, ex);
			throw ex;
		}
		stop(call, series, start, null);
		return result;
	}

	/**
	 * Times asynchronous work: from this call to the completion of the stage {@code work}
	 * returns. The call's observation, if it has one, is current while {@code work} runs.
	 * A {@code null} stage is recorded as failed with a {@link NullPointerException}, as
	 * the caller will see it.
	 * @param <S> the stage type
	 * @param <E> the checked exception type
	 * @param call the resolved call
	 * @param work the work that starts the asynchronous work and returns its stage
	 * @return the stage {@code work} returned, itself
	 * @throws E what {@code work} threw
	 */
	public <S extends CompletionStage<?>, E extends Throwable> S observeAsync(OperationResolver.Resolved call,
			Observation.CheckedCallable<S, E> work) throws E {
		AsyncOperation operation = startAsync(call, null);
		Observation.Scope scope = operation.openScope();
		S stage;
		try {
			stage = work.call();
		}
		catch (Throwable ex) {
			operation.closeScope(scope);
			operation.fail(ex);
			throw ex;
		}
		operation.closeScope(scope);
		operation.endWhenComplete(stage);
		return stage;
	}

	/**
	 * Starts timing one asynchronous call, such as one subscription: it is in flight
	 * until the returned operation ends, exactly once.
	 * @param call the resolved call
	 * @param parent the observation the call's observation is a child of, or {@code null}
	 * for the current one
	 * @return the started operation
	 */
	public AsyncOperation startAsync(OperationResolver.Resolved call, @Nullable Observation parent) {
		Series series = route(call);
		if (series != null) {
			return new AsyncOperation(this, call, series, start(call, series), null);
		}
		if (call.descriptor == null) {
			return new AsyncOperation(this, call, null, NOT_STARTED, null);
		}
		return new AsyncOperation(this, call, null, NOT_STARTED,
				startObservation(call.descriptor, call.labels, parent));
	}

	RecordingFailures failures() {
		return this.failures;
	}

	/**
	 * The series a call is recorded into directly, or {@code null} when it goes through
	 * an observation or, unrecorded, counts its failure.
	 */
	@Nullable Series route(OperationResolver.Resolved call) {
		if (call.descriptor == null) {
			this.failures.recordUnlessFatal(call.unrecordedAction, call.unrecordedBecause);
			return null;
		}
		Series series = call.series;
		if (series != null || this.directPredicates == null || call.observed) {
			return series;
		}
		return directSeries(call);
	}

	/**
	 * Finds a call's series and keeps it with the call, or leaves the call to
	 * observations for good when the predicates switch its operation off.
	 */
	private @Nullable Series directSeries(OperationResolver.Resolved call) {
		try {
			if (!recordsDirectly(call.descriptor)) {
				call.observed = true;
				return null;
			}
			Series series = series(call.descriptor, call.labels);
			call.series = series;
			return series;
		}
		catch (Throwable ex) {
			// The observation records (or counts the failure) instead.
			this.failures.recordUnlessFatal("start of operation " + call.descriptor.operation(), ex);
			return null;
		}
	}

	private boolean recordsDirectly(OperationDescriptor descriptor) {
		if (this.directPredicates.isEmpty()) {
			return true;
		}
		Observation.Context context = new Context(descriptor, Tags.empty());
		for (ObservationPredicate predicate : this.directPredicates) {
			if (!predicate.test(descriptor.baseName(), context)) {
				return false;
			}
		}
		return true;
	}

	long start(OperationResolver.Resolved call, Series series) {
		long start;
		try {
			start = this.clock.monotonicTime();
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("recording of operation " + call.descriptor.operation(), ex);
			return NOT_STARTED;
		}
		series.started.incrementAndGet();
		return start;
	}

	void stop(OperationResolver.Resolved call, Series series, long start, @Nullable Throwable error) {
		stop(call, series, start, error, false);
	}

	void stop(OperationResolver.Resolved call, Series series, long start, @Nullable Throwable error,
			boolean cancelled) {
		if (start == NOT_STARTED) {
			return;
		}
		Outcome outcome = null;
		try {
			outcome = record(series, error, cancelled, this.clock.monotonicTime() - start);
			countLimits(series, outcome);
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("recording of operation " + call.descriptor.operation(), ex);
		}
		finally {
			finish(series, outcome);
		}
	}

	/**
	 * Takes a started call out of flight: the success series of the prometheus backend
	 * counted it already; any other call, or one whose recording failed, is counted here,
	 * so that a failing clock or timer never leaves a call in flight.
	 */
	private static void finish(Series series, @Nullable Outcome recorded) {
		if (recorded == null || !recorded.countsCalls) {
			series.finished.incrementAndGet();
		}
	}

	// The observation way: Micrometer calls onStart and onStop of the handler registered
	// with the observation registry, this recorder's meters or another's.

	private <T, E extends Throwable> T observeThrough(OperationResolver.Resolved call,
			Observation.CheckedCallable<T, E> work) throws E {
		Observation observation = startObservation(call.descriptor, call.labels, null);
		Observation.Scope scope = openScope(observation);
		try {
			return work.call();
		}
		catch (Throwable ex) {
			signalError(observation, ex);
			throw ex;
		}
		finally {
			stopObservation(observation, scope);
		}
	}

	Observation startObservation(OperationDescriptor descriptor, Tags labels, @Nullable Observation parent) {
		Observation observation;
		try {
			Context context = new Context(descriptor, labels);
			observation = Observation.createNotStarted(descriptor.baseName(), () -> context, this.observations)
				.contextualName(descriptor.operation());
			if (parent != null) {
				observation.parentObservation(parent);
			}
			for (Tag label : labels) {
				observation.lowCardinalityKeyValue(label.getKey(), label.getValue());
			}
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("start of operation " + descriptor.operation(), ex);
			return Observation.NOOP;
		}
		try {
			observation.start();
		}
		catch (Throwable ex) {
			// Handlers ahead of the failing one have started: stopping later keeps their
			// state (such as the in-flight gauge) balanced.
			this.failures.recordUnlessFatal("start of operation " + descriptor.operation(), ex);
		}
		return observation;
	}

	Observation.@Nullable Scope openScope(Observation observation) {
		Observation.Scope previous = (this.observations != null) ? this.observations.getCurrentObservationScope()
				: null;
		try {
			return observation.openScope();
		}
		catch (Throwable ex) {
			// The scope was made current before a handler failed: put the caller's back,
			// or later observations on this thread would take this one as parent.
			if (this.observations != null) {
				this.observations.setCurrentObservationScope(previous);
			}
			this.failures.recordUnlessFatal("scope of an operation", ex);
			return null;
		}
	}

	void signalError(Observation observation, Throwable error) {
		try {
			observation.error(error);
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("error of an operation", ex);
		}
	}

	void stopObservation(Observation observation, Observation.@Nullable Scope scope) {
		try {
			if (scope != null) {
				scope.close();
			}
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("scope of an operation", ex);
		}
		try {
			if (observation.getContextView() instanceof Context context) {
				// No "error" key value: tracing handlers turn one into an error on every
				// span. The meters take it from the context.
				observation.lowCardinalityKeyValue(MetricConventions.RESULT_LABEL, context.getResult());
			}
			observation.stop();
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("stop of an operation", ex);
			if (observation.getContextView() instanceof Context context) {
				context.stopIfPending();
			}
		}
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof Context;
	}

	@Override
	public void onStart(Context context) {
		try {
			context.startNanos = this.clock.monotonicTime();
		}
		catch (Throwable ex) {
			// Without a start time nothing can be recorded for this call.
			this.failures.recordUnlessFatal("start of " + context.getDescriptor().operation(), ex);
			return;
		}
		context.startedBy = this;
		try {
			Series series = series(context.getDescriptor(), context.getLabels());
			series.started.incrementAndGet();
			context.series = series;
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("start of " + context.getDescriptor().operation(), ex);
		}
	}

	@Override
	public void onStop(Context context) {
		if (context.startedBy == null || context.stopped) {
			return;
		}
		context.stopped = true;
		Series series = context.series;
		Outcome outcome = null;
		try {
			long duration = this.clock.monotonicTime() - context.startNanos;
			if (series == null) {
				// Found only now: started here, so that the call it records leaves
				// flight.
				series = series(context.getDescriptor(), context.getLabels());
				series.started.incrementAndGet();
			}
			outcome = record(series, context.getError(), context.cancelled, duration);
			countLimits(series, outcome);
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("duration of " + context.getDescriptor().operation(), ex);
		}
		finally {
			if (series != null) {
				finish(series, outcome);
			}
		}
	}

	// The meters: a series per operation and label set, an outcome per result and error.

	/**
	 * The series of an operation for resolved label values, registered on first use.
	 */
	private Series series(OperationDescriptor descriptor, Tags labels) {
		Map<Tags, Series> known = this.series.get(descriptor.baseName());
		if (known == null) {
			known = this.series.computeIfAbsent(descriptor.baseName(), (name) -> new ConcurrentHashMap<>());
		}
		Series existing = known.get(labels);
		return (existing != null) ? existing
				: known.computeIfAbsent(labels, (key) -> new Series(this.registry, descriptor, key));
	}

	/**
	 * Records the duration of one call into its outcome's series.
	 * @return the outcome, once its series has recorded the call
	 */
	private Outcome record(Series series, @Nullable Throwable error, boolean cancelled, long nanos) {
		Outcome outcome = cancelled ? cancelled(series) : outcome(series, error);
		outcome.recorder.record(nanos);
		return outcome;
	}

	/** Counts what a recorded outcome's series stands for. */
	private void countLimits(Series series, Outcome outcome) {
		if ((outcome.unexpected != 0 || outcome.overflow) && this.limiter != null) {
			this.limiter.countUnexpected(outcome.unexpected);
			if (outcome.overflow) {
				this.limiter.countOverflow(series.descriptor.familyName());
			}
		}
	}

	private Outcome cancelled(Series series) {
		Outcome outcome = series.cancelled;
		if (outcome == null) {
			outcome = register(series, MetricConventions.CANCELLED, MetricConventions.NONE);
			series.cancelled = outcome;
		}
		return outcome;
	}

	private Outcome outcome(Series series, @Nullable Throwable error) {
		if (error == null) {
			Outcome outcome = series.success;
			return (outcome != null) ? outcome : success(series);
		}
		Outcome outcome = series.failures.get(error.getClass());
		return (outcome != null) ? outcome : series.failures.computeIfAbsent(error.getClass(),
				(type) -> register(series, MetricConventions.ERROR, errorLabel(error)));
	}

	/**
	 * Registers a series' success outcome once: the in-flight gauge may read the calls it
	 * counts, which a second registration would hide.
	 */
	private Outcome success(Series series) {
		synchronized (series) {
			Outcome outcome = series.success;
			if (outcome == null) {
				outcome = register(series, MetricConventions.SUCCESS, MetricConventions.NONE);
				series.success = outcome;
			}
			return outcome;
		}
	}

	private Outcome register(Series series, String result, String error) {
		// Only the success series of a label set that did not overflow is the series'
		// own: its count is the calls that left flight successfully.
		boolean own = MetricConventions.SUCCESS.equals(result) && !series.overflowTags;
		if (this.limiter == null) {
			return outcome(own ? this.durations.registerOwn(series.descriptor, series.labels, result, error)
					: this.durations.register(series.descriptor, series.labels, result, error), 0, false);
		}
		String family = series.descriptor.familyName();
		String errorValue = error;
		int unexpected = series.unexpectedTags;
		if (MetricConventions.ERROR.equals(result)) {
			errorValue = this.limiter.categorizeUncounted(family, MetricConventions.ERROR_LABEL, error);
			unexpected += (errorValue == CardinalityLimiter.UNEXPECTED) ? 1 : 0;
		}
		String[] keyValues = new String[2 * (int) series.labels.stream().count() + 4];
		int i = 0;
		for (Tag label : series.labels) {
			keyValues[i++] = label.getKey();
			keyValues[i++] = label.getValue();
		}
		keyValues[i++] = MetricConventions.RESULT_LABEL;
		keyValues[i++] = result;
		keyValues[i++] = MetricConventions.ERROR_LABEL;
		keyValues[i] = errorValue;
		boolean admitted = this.limiter.admitOrOverflow(family, keyValues);
		Tags tags = Tags.empty();
		for (int k = 0; k < keyValues.length - 4; k += 2) {
			tags = tags.and(keyValues[k], keyValues[k + 1]);
		}
		boolean overflow = series.overflowTags || !admitted;
		OperationDurations.Recorder recorder = (own && !overflow)
				? this.durations.registerOwn(series.descriptor, tags, keyValues[keyValues.length - 3],
						keyValues[keyValues.length - 1])
				: this.durations.register(series.descriptor, tags, keyValues[keyValues.length - 3],
						keyValues[keyValues.length - 1]);
		return outcome(recorder, unexpected, overflow);
	}

	private static Outcome outcome(OperationDurations.Recorder recorder, int unexpected, boolean overflow) {
		return new Outcome(recorder, unexpected, overflow, !overflow && recorder.countsOwnCalls());
	}

	/**
	 * The {@code error} label value of a failure: its exception's simple class name.
	 * Anonymous classes have no simple name and give their binary name instead.
	 */
	private static String errorLabel(Throwable error) {
		String simpleName = error.getClass().getSimpleName();
		return simpleName.isEmpty() ? error.getClass().getName() : simpleName;
	}

	/**
	 * The meters of one operation for one set of label values: the in-flight gauge,
	 * registered at once, and a duration series per outcome, registered on first use and
	 * then reached without a lookup.
	 */
	static final class Series {

		private final OperationDescriptor descriptor;

		private final Tags labels;

		/** How many of the operation tag values are {@code unexpected}. */
		private final int unexpectedTags;

		/** Whether the operation tags went to the in-flight gauge's overflow series. */
		private final boolean overflowTags;

		/** Calls started, counted before they run. */
		private final AtomicLong started = new AtomicLong();

		/**
		 * Calls ended that are not counted by the success outcome's own series: with the
		 * Micrometer backend every call, with the prometheus backend the others.
		 */
		private final AtomicLong finished = new AtomicLong();

		private volatile @Nullable Outcome success;

		private volatile @Nullable Outcome cancelled;

		private final Map<Class<?>, Outcome> failures = new ConcurrentHashMap<>();

		Series(MeterRegistry registry, OperationDescriptor descriptor, Tags labels) {
			this.descriptor = descriptor;
			this.labels = labels;
			int unexpected = 0;
			boolean overflow = false;
			for (Tag label : labels) {
				unexpected += CardinalityLimiter.UNEXPECTED.equals(label.getValue()) ? 1 : 0;
				overflow |= CardinalityLimiter.OVERFLOW.equals(label.getValue());
			}
			this.unexpectedTags = unexpected;
			this.overflowTags = overflow;
			Gauge.builder(descriptor.inFlightName(), this, Series::inFlight)
				.description(descriptor.inFlightDescription())
				.tags(labels)
				.strongReference(true)
				.register(registry);
		}

		/**
		 * Calls in flight: started, less those ended. The ended ones are read first, and
		 * each was counted as started before it ended, so the gauge is never negative,
		 * and exact once no call runs.
		 */
		double inFlight() {
			Outcome success = this.success;
			long ended = this.finished.get();
			if (success != null && success.countsCalls) {
				ended += success.recorder.count();
			}
			return this.started.get() - ended;
		}

	}

	/**
	 * The duration series of one outcome, what each call recorded into it counts, and
	 * whether its series counts the calls of its operation series alone, so that the
	 * in-flight gauge reads them from it rather than counting them again.
	 */
	private record Outcome(OperationDurations.Recorder recorder, int unexpected, boolean overflow,
			boolean countsCalls) {
	}

	/**
	 * The {@link Observation.Context} of one operation call: which operation, with which
	 * label values, and the state the meter handler keeps between start and stop.
	 */
	public static final class Context extends Observation.Context {

		private final OperationDescriptor descriptor;

		private final Tags labels;

		private long startNanos;

		private @Nullable Series series;

		private @Nullable OperationRecorder startedBy;

		private boolean stopped;

		private volatile boolean cancelled;

		/**
		 * Creates the context of one call.
		 * @param descriptor the operation
		 * @param labels one tag per key of {@link OperationDescriptor#labelKeys()}
		 */
		public Context(OperationDescriptor descriptor, Tags labels) {
			this.descriptor = descriptor;
			this.labels = labels;
		}

		/**
		 * The operation being timed.
		 * @return its descriptor
		 */
		public OperationDescriptor getDescriptor() {
			return this.descriptor;
		}

		/**
		 * Label values of this call, one per configured key, without {@code result} and
		 * {@code error}.
		 * @return the labels
		 */
		public Tags getLabels() {
			return this.labels;
		}

		/**
		 * {@code success}, {@code error} once an error was signalled, or
		 * {@code cancelled} for an asynchronous call cancelled before it ended.
		 * @return the value of the {@code result} label
		 */
		public String getResult() {
			if (this.cancelled) {
				return MetricConventions.CANCELLED;
			}
			return (getError() != null) ? MetricConventions.ERROR : MetricConventions.SUCCESS;
		}

		/**
		 * Whether the call was cancelled before it ended.
		 * @return whether the result is {@code cancelled}
		 */
		public boolean isCancelled() {
			return this.cancelled;
		}

		/** Marks the call cancelled, ahead of stopping its observation. */
		void cancel() {
			this.cancelled = true;
		}

		/**
		 * Simple class name of the signalled error ({@code none} without one). Anonymous
		 * classes have no simple name and give their binary name instead.
		 * @return the value of the {@code error} label
		 */
		public String getErrorLabel() {
			Throwable error = getError();
			return (error != null) ? errorLabel(error) : MetricConventions.NONE;
		}

		/**
		 * Stops the meter handler's recording if the observation's stop never reached it,
		 * because another handler failed first.
		 */
		void stopIfPending() {
			if (this.startedBy != null && !this.stopped) {
				this.startedBy.onStop(this);
			}
		}

	}

}
