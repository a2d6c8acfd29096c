package dev.controllerobservability.operations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.metrics.ExposedFamily;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.metrics.RecordingFailures;
import dev.controllerobservability.internal.operations.OperationContext;
import dev.controllerobservability.internal.operations.OperationDescriptor;
import dev.controllerobservability.internal.operations.OperationSeries;
import dev.controllerobservability.internal.operations.OperationSeriesCache;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Visibility;

/**
 * Times controller operations through the Micrometer Observation API, so metrics and
 * tracing both see them. Example:
 * <pre>{@code
 * Node node = operations.observe("launch", Tags.of("provisioner", "gpu"), () -> cloud.launch(request));
 * operations.observe("bind", Tags.of("provisioner", "gpu"), () -> binder.bind(pod, node));
 * }</pre>
 * gives {@code <namespace>_launch_duration_seconds{provisioner="gpu",result="success",error="none"}}
 * and {@code <namespace>_launch_in_flight{provisioner="gpu"}}.
 * <p>
 * Every call carries every configured label key: a key not given is {@code none}; a key
 * that is not configured is dropped and reported. Recording never throws into the
 * caller and never changes the work's result or exception: a failure while observing is
 * counted in {@code <namespace>_observability_errors_total}, logged at a limited rate,
 * and the work runs as if unobserved.
 * <p>
 * When nothing but the meter handler would see an operation's observation (no tracing,
 * no other observation handler), the Spring Boot auto-configuration switches on the
 * direct path ({@link Builder#directRecording}): calls record into the same meters
 * without creating an observation, and a call with a {@link Tags} instance seen before
 * allocates nothing. {@link #bind(String, Iterable)} resolves an operation's labels
 * once for hot paths.
 */
public class ControllerOperations {

	/** Most label sets per operation whose resolution is remembered on the direct path. */
	static final int MAX_CACHED_LABEL_SETS = 1024;

	/** Default of {@link Builder#maxOperations(int)}. */
	public static final int DEFAULT_MAX_OPERATIONS = 100;

	private final ObservationRegistry observationRegistry;

	private final String namespace;

	private final List<String> labelKeys;

	private final Map<String, OperationDefinition> definitions;

	private final RecordingFailures failures;

	private final CardinalityLimiter limiter;

	private final ConcurrentMap<String, OperationDescriptor> descriptors = new ConcurrentHashMap<>();

	private final OperationSeriesCache directSeries;

	private final List<ObservationPredicate> predicates;

	private final ConcurrentMap<String, ConcurrentMap<Tags, OperationHandle>> handles = new ConcurrentHashMap<>();

	private final int maxOperations;

	/** Most spellings of operation names whose resolution is remembered. */
	private final int maxCachedNames;

	private final Set<String> admitted = ConcurrentHashMap.newKeySet();

	protected ControllerOperations(Builder builder) {
		this.directSeries = builder.directSeries;
		this.predicates = List.copyOf(builder.predicates);
		this.observationRegistry = builder.observationRegistry;
		this.namespace = builder.namespace;
		this.labelKeys = List.copyOf(builder.labelKeys);
		this.definitions = Map.copyOf(builder.definitions);
		this.failures = builder.failures;
		this.limiter = builder.limiter;
		this.maxOperations = builder.maxOperations;
		this.maxCachedNames = 4 * (this.maxOperations + this.definitions.size());
	}

	/**
	 * Starts a builder.
	 * @param observationRegistry the registry the observations go through
	 * @param failures where recording failures go
	 * @return a builder with namespace {@code controller}, no operation label keys
	 * and no operation definitions
	 */
	public static Builder builder(ObservationRegistry observationRegistry, RecordingFailures failures) {
		return new Builder(observationRegistry, failures);
	}

	/**
	 * Times {@code work} as {@code operation}.
	 * @param <T> the result type
	 * @param operation operation name such as {@code bind} or {@code apply-packing}
	 * @param tags label values, keys from the configured operation labels
	 * @param work the work to time
	 * @return what {@code work} returned
	 */
	public <T> T observe(String operation, Iterable<Tag> tags, Supplier<T> work) {
		if (this.directSeries != null) {
			OperationHandle handle = handle(operation, tags);
			return (handle != null) ? handle.observe(work) : work.get();
		}
		return observeChecked(operation, tags, work::get);
	}

	/**
	 * Times {@code work} as {@code operation}.
	 * @param operation operation name such as {@code bind} or {@code apply-packing}
	 * @param tags label values, keys from the configured operation labels
	 * @param work the work to time
	 */
	public void observe(String operation, Iterable<Tag> tags, Runnable work) {
		if (this.directSeries != null) {
			OperationHandle handle = handle(operation, tags);
			if (handle != null) {
				handle.observe(work);
			}
			else {
				work.run();
			}
			return;
		}
		runChecked(operation, tags, work::run);
	}

	/**
	 * Times work that may throw a checked exception, which is rethrown unchanged.
	 * @param <T> the result type
	 * @param <E> the checked exception type
	 * @param operation operation name such as {@code launch}
	 * @param tags label values, keys from the configured operation labels
	 * @param work the work to time
	 * @return what {@code work} returned
	 * @throws E what {@code work} threw
	 */
	public <T, E extends Throwable> T observeChecked(String operation, Iterable<Tag> tags,
			Observation.CheckedCallable<T, E> work) throws E {
		if (this.directSeries != null) {
			OperationHandle handle = handle(operation, tags);
			return (handle != null) ? handle.observeChecked(work) : work.call();
		}
		Observation observation = start(operation, tags);
		return observe(observation, work);
	}

	/**
	 * Whether operations are recorded straight into their meters rather than through an
	 * observation.
	 * @return whether the direct path is on
	 */
	public boolean isRecordingDirectly() {
		return this.directSeries != null;
	}

	/**
	 * Resolves an operation's labels once, for a hot path that times the same operation
	 * with the same label values again and again.
	 * @param operation operation name such as {@code bind}
	 * @param tags label values, keys from the configured operation labels
	 * @return the handle; one that runs the work unrecorded when the operation would
	 * exceed {@link Builder#maxOperations(int) the most operations}
	 * @throws IllegalArgumentException if the name has no valid snake_case form
	 */
	public OperationHandle bind(String operation, Iterable<Tag> tags) {
		OperationDescriptor descriptor = describe(operation);
		if (!admit(descriptor)) {
			return OperationHandle.unrecorded(this.failures);
		}
		Tags labels = labels(descriptor, tags);
		OperationSeries series = null;
		if (this.directSeries != null && recordsDirectly(descriptor)) {
			try {
				series = this.directSeries.series(descriptor, labels);
			}
			catch (RuntimeException ex) {
				// The observation path records (or counts the failure) call by call instead.
				handle("start of operation " + descriptor.operation(), ex);
			}
		}
		return new OperationHandle(this, descriptor, labels, series,
				(this.directSeries != null) ? this.directSeries.clock() : null, this.failures);
	}

	/**
	 * The handle of a direct-path call, remembered for {@link Tags} instances; or
	 * {@code null} when the operation cannot be resolved (the failure is recorded and
	 * the work runs unobserved).
	 */
	private OperationHandle handle(String operation, Iterable<Tag> tags) {
		try {
			Tags key = (tags instanceof Tags given) ? given : (tags != null) ? null : Tags.empty();
			ConcurrentMap<Tags, OperationHandle> known = this.handles.get(operation);
			if (known != null && key != null) {
				OperationHandle handle = known.get(key);
				if (handle != null) {
					return handle;
				}
			}
			OperationHandle handle = bind(operation, tags);
			if (key != null && isCacheable(key, handle)) {
				if (known == null && this.handles.size() < this.maxCachedNames) {
					known = this.handles.computeIfAbsent(operation, (name) -> new ConcurrentHashMap<>());
				}
				if (known != null && known.size() < MAX_CACHED_LABEL_SETS) {
					known.putIfAbsent(key, handle);
				}
			}
			return handle;
		}
		catch (Throwable ex) {
			handle("start of operation " + operation, ex);
			return null;
		}
	}

	/**
	 * Whether a handle may be remembered for a caller's tags: values longer than the
	 * limiter keeps would make the cache hold more than the series it stands for.
	 */
	private boolean isCacheable(Tags tags, OperationHandle handle) {
		if (!handle.isRecorded()) {
			return false;
		}
		if (this.directSeries != null && !handle.isDirect() && recordsDirectly(handle.descriptor())) {
			// Its meters could not be registered: try again on the next call.
			return false;
		}
		if (this.limiter == null) {
			return true;
		}
		int maxLength = this.limiter.maxLabelValueLength();
		for (Tag tag : tags) {
			if (tag.getValue().length() > maxLength || tag.getKey().length() > maxLength) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The caller's tags whose handles the direct path remembers for an operation.
	 */
	Set<Tags> cachedTags(String operation) {
		Map<Tags, OperationHandle> known = this.handles.get(operation);
		return (known != null) ? Set.copyOf(known.keySet()) : Set.of();
	}

	private boolean recordsDirectly(OperationDescriptor descriptor) {
		if (this.predicates.isEmpty()) {
			return true;
		}
		Observation.Context context = new OperationContext(descriptor, Tags.empty());
		for (ObservationPredicate predicate : this.predicates) {
			if (!predicate.test(descriptor.baseName(), context)) {
				// Switched off by name: the observation path skips it as the registry says.
				return false;
			}
		}
		return true;
	}

	/**
	 * Times work through the Observation API with already resolved labels.
	 */
	<T, E extends Throwable> T observeResolved(OperationDescriptor descriptor, Tags labels,
			Observation.CheckedCallable<T, E> work) throws E {
		return observe(start(descriptor, labels), work);
	}

	private <T, E extends Throwable> T observe(Observation observation, Observation.CheckedCallable<T, E> work)
			throws E {
		Observation.Scope scope = openScope(observation);
		try {
			return work.call();
		}
		catch (Throwable ex) {
			signalError(observation, ex);
			throw ex;
		}
		finally {
			stop(observation, scope);
		}
	}

	/**
	 * Times work without a result that may throw a checked exception, which is
	 * rethrown unchanged.
	 * @param <E> the checked exception type
	 * @param operation operation name such as {@code launch}
	 * @param tags label values, keys from the configured operation labels
	 * @param work the work to time
	 * @throws E what {@code work} threw
	 */
	public <E extends Throwable> void runChecked(String operation, Iterable<Tag> tags,
			Observation.CheckedRunnable<E> work) throws E {
		observeChecked(operation, tags, () -> {
			work.run();
			return null;
		});
	}

	/**
	 * The resolved names, help texts, buckets and label keys of an operation.
	 * @param operation operation name such as {@code apply-packing}
	 * @return its descriptor
	 * @throws IllegalArgumentException if the name has no valid snake_case form
	 */
	public OperationDescriptor describe(String operation) {
		OperationDescriptor existing = this.descriptors.get(operation);
		if (existing != null) {
			return existing;
		}
		return (this.descriptors.size() < this.maxCachedNames)
				? this.descriptors.computeIfAbsent(operation, this::resolve) : resolve(operation);
	}

	/**
	 * Whether an operation may be recorded: declared operations always are, others while
	 * fewer than the most operations have been recorded. A refusal is counted and logged
	 * as a recording failure.
	 */
	private boolean admit(OperationDescriptor descriptor) {
		String name = descriptor.operation();
		if (this.admitted.contains(name)) {
			return true;
		}
		synchronized (this.admitted) {
			if (this.admitted.contains(name) || this.definitions.containsKey(name)
					|| this.admitted.size() < this.maxOperations) {
				this.admitted.add(name);
				return true;
			}
		}
		this.failures.record("start of operation " + name, new IllegalStateException("Operation '" + name
				+ "' is not recorded: " + this.maxOperations + " distinct operations are recorded already, the most "
				+ "allowed. Declare it under controller.observability.operations.definitions, raise "
				+ "controller.observability.operations.max-operations, or keep per-call values out of operation "
				+ "names (they belong in operation tags)."));
		return false;
	}

	/**
	 * The families an operation exposes, as the Prometheus text format will show them,
	 * whether or not it has been called yet: the duration histogram, its {@code _max}
	 * gauge and the in-flight gauge.
	 * @param operation operation name such as {@code bind}
	 * @param extraLabels label names every controller metric gets besides its own, such as
	 * common tags
	 * @param defaultBuckets the shared duration buckets, in seconds
	 * @return the families
	 */
	public List<ExposedFamily> families(String operation, Collection<String> extraLabels,
			List<Double> defaultBuckets) {
		OperationDescriptor descriptor = describe(operation);
		Map<String, String> labels = new TreeMap<>();
		extraLabels.forEach((label) -> labels.put(label, ""));
		descriptor.labelKeys().forEach((label) -> labels.put(label, ""));
		Map<String, String> withOutcome = new TreeMap<>(labels);
		withOutcome.put(MetricConventions.RESULT_LABEL, "");
		withOutcome.put(MetricConventions.ERROR_LABEL, "");
		List<Double> buckets = descriptor.buckets().isEmpty() ? defaultBuckets
				: descriptor.buckets().stream().map((bucket) -> bucket.toNanos() / 1e9).toList();
		return List.of(
				new ExposedFamily(descriptor.familyName(), "histogram", descriptor.durationDescription(),
						List.of(withOutcome), buckets),
				new ExposedFamily(descriptor.familyName() + "_max", "gauge", descriptor.durationDescription(),
						List.of(withOutcome), List.of()),
				new ExposedFamily(descriptor.inFlightFamilyName(), "gauge", descriptor.inFlightDescription(),
						List.of(labels), List.of()));
	}

	private OperationDescriptor resolve(String operation) {
		String name = MetricNames.toSnakeCase(Objects.requireNonNull(operation, "operation must not be null"));
		if (!MetricNames.isSnakeCase(name)) {
			throw new IllegalArgumentException("Operation name '" + operation + "' has no valid metric name form ('"
					+ name + "'); use letters, digits, '-' or '_', starting with a letter, such as 'apply-packing'");
		}
		OperationDefinition definition = this.definitions.getOrDefault(name, OperationDefinition.DEFAULT);
		String subsystem = definition.subsystem();
		String baseName = this.namespace + "." + ((subsystem != null) ? subsystem + "." : "") + name;
		String readable = name.replace('_', ' ');
		String description = annotate(definition, (definition.description() != null) ? definition.description()
				: "Duration of " + readable + " operations in seconds.");
		List<Duration> buckets = List.of(BucketRules.durations(definition.buckets()));
		return new OperationDescriptor(name, baseName, description,
				annotate(definition, "Number of " + readable + " operations in flight."),
				buckets, this.labelKeys, baseName.replace('.', '_') + "_" + MetricConventions.DURATION_SUFFIX
						+ "_seconds");
	}

	private static String annotate(OperationDefinition definition, String help) {
		return (definition.stability() != null)
				? StabilityPolicy.help(definition.stability(), Visibility.VISIBLE, null, help) : help;
	}

	private Observation start(String operation, Iterable<Tag> tags) {
		OperationDescriptor descriptor;
		Tags labels;
		try {
			descriptor = describe(operation);
			if (!admit(descriptor)) {
				return Observation.NOOP;
			}
			labels = labels(descriptor, tags);
		}
		catch (Throwable ex) {
			handle("start of operation " + operation, ex);
			return Observation.NOOP;
		}
		return start(descriptor, labels);
	}

	private Observation start(OperationDescriptor descriptor, Tags labels) {
		Observation observation;
		try {
			OperationContext context = new OperationContext(descriptor, labels);
			observation = Observation.createNotStarted(descriptor.baseName(), () -> context, this.observationRegistry)
				.contextualName(descriptor.operation());
			for (Tag label : labels) {
				observation.lowCardinalityKeyValue(label.getKey(), label.getValue());
			}
		}
		catch (Throwable ex) {
			handle("start of operation " + descriptor.operation(), ex);
			return Observation.NOOP;
		}
		try {
			observation.start();
		}
		catch (Throwable ex) {
			// Handlers ahead of the failing one have started: stopping later keeps their
			// state (such as the in-flight gauge) balanced.
			handle("start of operation " + descriptor.operation(), ex);
		}
		return observation;
	}

	private Tags labels(OperationDescriptor descriptor, Iterable<Tag> tags) {
		String[] keyValues = new String[this.labelKeys.size() * 2];
		for (int i = 0; i < this.labelKeys.size(); i++) {
			keyValues[2 * i] = this.labelKeys.get(i);
			keyValues[2 * i + 1] = MetricConventions.NONE;
		}
		if (tags != null) {
			for (Tag tag : tags) {
				int index = this.labelKeys.indexOf(tag.getKey());
				if (index < 0) {
					this.failures.record("labels of operation " + descriptor.operation(),
							new IllegalArgumentException("Tag '" + tag.getKey() + "' is not an operation label; "
									+ "the labels are " + this.labelKeys + ". Add it to "
									+ "controller.observability.operations.tags or stop passing it."));
				}
				else if (!tag.getValue().isEmpty()) {
					keyValues[2 * index + 1] = tag.getValue();
				}
			}
		}
		return (this.limiter != null) ? this.limiter.limit(descriptor.familyName(), keyValues) : Tags.of(keyValues);
	}

	private Observation.Scope openScope(Observation observation) {
		try {
			return observation.openScope();
		}
		catch (Throwable ex) {
			handle("scope of an operation", ex);
			return null;
		}
	}

	private void signalError(Observation observation, Throwable error) {
		try {
			observation.error(error);
		}
		catch (Throwable ex) {
			handle("error of an operation", ex);
		}
	}

	private void stop(Observation observation, Observation.Scope scope) {
		try {
			if (scope != null) {
				scope.close();
			}
		}
		catch (Throwable ex) {
			handle("scope of an operation", ex);
		}
		try {
			if (observation.getContextView() instanceof OperationContext context) {
				// No "error" key value: tracing handlers turn one into an error on every span.
				// The meters take it from the context.
				observation.lowCardinalityKeyValue(MetricConventions.RESULT_LABEL, context.getResult());
			}
			observation.stop();
		}
		catch (Throwable ex) {
			handle("stop of an operation", ex);
			if (observation.getContextView() instanceof OperationContext context) {
				context.stopIfPending();
			}
		}
	}

	private void handle(String action, Throwable ex) {
		if (RecordingFailures.isFatal(ex)) {
			throw (VirtualMachineError) ex;
		}
		this.failures.record(action, ex);
	}

	/** Builds {@link ControllerOperations}. */
	public static final class Builder {

		private final ObservationRegistry observationRegistry;

		private final RecordingFailures failures;

		private String namespace = MetricConventions.DEFAULT_NAMESPACE;

		private List<String> labelKeys = MetricConventions.DEFAULT_OPERATION_LABELS;

		private final Map<String, OperationDefinition> definitions = new LinkedHashMap<>();

		private CardinalityLimiter limiter;

		private OperationSeriesCache directSeries;

		private List<ObservationPredicate> predicates = List.of();

		private int maxOperations = DEFAULT_MAX_OPERATIONS;

		private Builder(ObservationRegistry observationRegistry, RecordingFailures failures) {
			this.observationRegistry = Objects.requireNonNull(observationRegistry, "observationRegistry");
			this.failures = Objects.requireNonNull(failures, "failures");
		}

		/**
		 * Sets the namespace every operation metric starts with.
		 * @param namespace snake_case namespace such as {@code karpenter}
		 * @return this builder
		 */
		public Builder namespace(String namespace) {
			this.namespace = Objects.requireNonNull(namespace, "namespace");
			return this;
		}

		/**
		 * Sets the label keys every operation metric carries.
		 * @param labelKeys snake_case keys such as {@code provisioner}
		 * @return this builder
		 */
		public Builder labelKeys(List<String> labelKeys) {
			this.labelKeys = new ArrayList<>(labelKeys);
			return this;
		}

		/**
		 * Adds per-operation settings.
		 * @param operation the operation name, such as {@code apply-packing}
		 * @param definition its settings
		 * @return this builder
		 */
		public Builder definition(String operation, OperationDefinition definition) {
			this.definitions.put(MetricNames.toSnakeCase(operation), definition);
			return this;
		}

		/**
		 * Sets the limits operation label values pass, keyed by the duration histogram's
		 * Prometheus name.
		 * @param limiter the limiter, or {@code null} for none
		 * @return this builder
		 */
		public Builder cardinalityLimiter(CardinalityLimiter limiter) {
			this.limiter = limiter;
			return this;
		}

		/**
		 * Records operations straight into the meter handler's series instead of through
		 * an observation. Use it only when no handler but
		 * {@link dev.controllerobservability.internal.operations.OperationMeterObservationHandler} would see operation observations: no
		 * tracing, no other handler. Operations the registry's predicates switch off by
		 * name keep going through the (then no-op) observation.
		 * @param series the handler's series, {@link dev.controllerobservability.internal.operations.OperationMeterObservationHandler#seriesCache()}
		 * @param predicates the observation registry's predicates
		 * @return this builder
		 */
		public Builder directRecording(OperationSeriesCache series, List<ObservationPredicate> predicates) {
			this.directSeries = Objects.requireNonNull(series, "series");
			this.predicates = List.copyOf(predicates);
			return this;
		}

		/**
		 * Sets the most distinct operations recorded. Declared operations are always
		 * recorded; calls of further undeclared operations run unrecorded, and each is
		 * counted as a recording failure.
		 * @param maxOperations at least 1
		 * @return this builder
		 */
		public Builder maxOperations(int maxOperations) {
			if (maxOperations < 1) {
				throw new IllegalArgumentException("maxOperations must be at least 1, got " + maxOperations);
			}
			this.maxOperations = maxOperations;
			return this;
		}

		/**
		 * Builds the operations.
		 * @return the configured operations
		 */
		public ControllerOperations build() {
			return new ControllerOperations(this);
		}

	}

}
