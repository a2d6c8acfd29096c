package dev.controllerobservability.operations;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.operations.AsyncOperation;
import dev.controllerobservability.internal.operations.OperationDurations;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.internal.operations.OperationResolver;
import dev.controllerobservability.internal.settings.SettingNames;

/**
 * Times controller operations through the Micrometer Observation API, so metrics and
 * tracing both see them. Example:
 *
 * <pre>{@code
 * Node node = operations.observe("launch", Tags.of("provisioner", "gpu"), () -> cloud.launch(request));
 * operations.observe("bind", Tags.of("provisioner", "gpu"), () -> binder.bind(pod, node));
 * }</pre> gives
 * {@code <namespace>_launch_duration_seconds{provisioner="gpu",result="success",error="none"}}
 * and {@code <namespace>_launch_in_flight{provisioner="gpu"}}.
 * <p>
 * Every call carries every configured label key: a key not given is {@code none}; a key
 * that is not configured is dropped and reported. Recording never throws into the caller
 * and never changes the work's result or exception: a failure while observing is counted
 * in {@code <namespace>_observability_errors_total}, logged at a limited rate, and the
 * work runs as if unobserved.
 * <p>
 * When nothing but the meter handler would see an operation's observation (no tracing, no
 * other observation handler), the Spring Boot auto-configuration switches on the direct
 * path ({@link Builder#directRecording}): calls record into the same meters without
 * creating an observation, and a call with a {@link Tags} instance seen before allocates
 * nothing. {@link #bind(String, Iterable)} resolves an operation's labels once for hot
 * paths.
 * <p>
 * A call reaches its series through four files, in this order, none calling back into an
 * earlier one: this class (or {@link OperationHandle} for a bound call, or
 * {@link ObservedOperationAspect} on its way to {@link #observeChecked});
 * {@code internal.operations.OperationResolver}, which turns the name and tags into the
 * operation (its definition, and its names through the {@code NamingPolicy}) and its
 * capped labels, once per name and, on the direct path, once per {@link Tags} instance;
 * {@code OperationRecorder}, which times the call, straight into its series or through an
 * observation whose meter handler ({@code onStart}, {@code onStop}) sits in the same
 * file, and picks the outcome's series with its capped {@code error}; and
 * {@code MicrometerDurations} (a Micrometer timer) or {@code PrometheusDurations} (a
 * {@code NativeHistogram} family), which holds the durations. The
 * {@link OperationDescriptor} record carries the names along.
 */
public class ControllerOperations {

	/** Default of {@link Builder#maxOperations(int)}. */
	public static final int DEFAULT_MAX_OPERATIONS = 100;

	private final OperationResolver resolver;

	private final OperationRecorder recorder;

	/** Whether an operation's duration histogram has a {@code _max} gauge. */
	private final Predicate<OperationDescriptor> exposesMax;

	private final RecordingFailures failures;

	protected ControllerOperations(Builder builder) {
		this.failures = builder.failures;
		boolean direct = builder.directRecorder != null;
		this.resolver = new OperationResolver(NamingPolicy.builder(builder.namespace).build(), builder.labelKeys,
				builder.definitions, builder.limiter, builder.maxOperations, builder.failures, builder.settingNames,
				direct);
		this.recorder = direct
				? builder.directRecorder.recordingDirectly(builder.observationRegistry, builder.predicates)
				: OperationRecorder.observing(builder.observationRegistry, builder.failures);
		OperationDurations durations = (builder.durations != null) ? builder.durations
				: direct ? builder.directRecorder.durations() : null;
		this.exposesMax = (durations != null) ? durations::exposesMax : (descriptor) -> true;
	}

	/**
	 * Starts a builder.
	 * @param observationRegistry the registry the observations go through
	 * @param failures where recording failures go
	 * @return a builder with namespace {@code controller}, no operation label keys and no
	 * operation definitions
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
		OperationResolver.Resolved call = resolve(operation, tags);
		return (call != null) ? this.recorder.observe(call, work) : work.get();
	}

	/**
	 * Times {@code work} as {@code operation}.
	 * @param operation operation name such as {@code bind} or {@code apply-packing}
	 * @param tags label values, keys from the configured operation labels
	 * @param work the work to time
	 */
	public void observe(String operation, Iterable<Tag> tags, Runnable work) {
		OperationResolver.Resolved call = resolve(operation, tags);
		if (call != null) {
			this.recorder.observe(call, work);
		}
		else {
			work.run();
		}
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
		OperationResolver.Resolved call = resolve(operation, tags);
		return (call != null) ? this.recorder.observeChecked(call, work) : work.call();
	}

	/**
	 * Times work without a result that may throw a checked exception, which is rethrown
	 * unchanged.
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
	 * Times asynchronous work as {@code operation}, from this call until the stage it
	 * returns completes:
	 *
	 * <pre>{@code
	 * CompletableFuture<Node> node = operations.observeAsync("launch", Tags.of("provisioner", "gpu"),
	 *         () -> cloud.launchAsync(request));
	 * }</pre> A stage that completes normally is recorded as {@code result="success"},
	 * one that completes with a {@link java.util.concurrent.CancellationException} (a
	 * cancelled future) as {@code result="cancelled"}, and any other as
	 * {@code result="error"} with the exception's class name, unwrapped from a
	 * {@link java.util.concurrent.CompletionException}. The stage returned is the one
	 * {@code work} returned, unchanged: recording hangs off it and can never change its
	 * result. With tracing the call is one span from this call to completion, current
	 * while {@code work} runs. A {@code null} stage is recorded as failed with
	 * {@code error="NullPointerException"}; an exception {@code work} throws is recorded
	 * and rethrown.
	 * @param <S> the stage type, such as {@code CompletableFuture<Node>}
	 * @param operation operation name such as {@code launch}
	 * @param tags label values, keys from the configured operation labels
	 * @param work starts the asynchronous work and returns its stage
	 * @return the stage {@code work} returned
	 */
	public <S extends CompletionStage<?>> S observeAsync(String operation, Iterable<Tag> tags, Supplier<S> work) {
		OperationResolver.Resolved call = resolve(operation, tags);
		return (call != null) ? this.recorder.observeAsync(call, work::get) : work.get();
	}

	/**
	 * {@link #observeAsync} for work that may throw a checked exception before it returns
	 * its stage, such as an annotated method.
	 */
	<S extends CompletionStage<?>, E extends Throwable> S observeAsyncChecked(String operation, Iterable<Tag> tags,
			Observation.CheckedCallable<S, E> work) throws E {
		OperationResolver.Resolved call = resolve(operation, tags);
		return (call != null) ? this.recorder.observeAsync(call, work) : work.call();
	}

	RecordingFailures failures() {
		return this.failures;
	}

	/** Starts one asynchronous call of a resolved operation. */
	AsyncOperation startAsync(OperationResolver.Resolved call, @Nullable Observation parent) {
		return this.recorder.startAsync(call, parent);
	}

	/**
	 * Whether operations are recorded straight into their meters rather than through an
	 * observation.
	 * @return whether the direct path is on
	 */
	public boolean isRecordingDirectly() {
		return this.recorder.isRecordingDirectly();
	}

	/**
	 * Resolves an operation's labels once, for a hot path that times the same operation
	 * with the same label values again and again. Never throws: when the operation cannot
	 * be recorded, the handle runs the work unrecorded and counts each call as a
	 * recording failure, as {@link #observe(String, Iterable, Supplier)} does.
	 * @param operation operation name such as {@code bind}
	 * @param tags label values, keys from the configured operation labels
	 * @return the handle; one that runs the work unrecorded, counting a recording failure
	 * per call, when the name is {@code null} or has no valid snake_case form, or the
	 * operation would exceed {@link Builder#maxOperations(int) the most operations}
	 */
	public OperationHandle bind(@Nullable String operation, @Nullable Iterable<Tag> tags) {
		OperationResolver.Resolved call = this.resolver.bind(operation, tags);
		this.recorder.prepare(call);
		return new OperationHandle(call, this.recorder);
	}

	/**
	 * The resolved names, help texts, buckets and label keys of an operation.
	 * @param operation operation name such as {@code apply-packing}
	 * @return its descriptor
	 * @throws IllegalArgumentException if the name is {@code null} or has no valid
	 * snake_case form
	 */
	public OperationDescriptor describe(String operation) {
		return this.resolver.describe(operation);
	}

	/**
	 * The families an operation exposes, as the Prometheus text format will show them,
	 * whether or not it has been called yet: the duration histogram, its {@code _max}
	 * gauge when the durations keep one, and the in-flight gauge.
	 * @param operation operation name such as {@code bind}
	 * @param extraLabels label names every controller metric gets besides its own, such
	 * as common tags
	 * @param defaultBuckets the shared duration buckets, in seconds
	 * @return the families
	 */
	public List<ExposedFamily> families(String operation, Collection<String> extraLabels, List<Double> defaultBuckets) {
		return this.resolver.families(operation, extraLabels, defaultBuckets, this.exposesMax);
	}

	/**
	 * The caller's tags whose resolution the direct path remembers for an operation.
	 */
	Set<Tags> cachedTags(String operation) {
		return this.resolver.cachedTags(operation);
	}

	/**
	 * A call's resolution; or {@code null} when resolving failed unexpectedly (the
	 * failure is recorded and the work runs unobserved).
	 */
	OperationResolver.@Nullable Resolved resolve(String operation, Iterable<Tag> tags) {
		try {
			return this.resolver.resolve(operation, tags);
		}
		catch (Throwable ex) {
			this.failures.recordUnlessFatal("start of operation " + operation, ex);
			return null;
		}
	}

	/** Builds {@link ControllerOperations}. */
	public static final class Builder {

		private final ObservationRegistry observationRegistry;

		private final RecordingFailures failures;

		private String namespace = MetricConventions.DEFAULT_NAMESPACE;

		private List<String> labelKeys = MetricConventions.DEFAULT_OPERATION_LABELS;

		private final Map<String, OperationDefinition> definitions = new LinkedHashMap<>();

		private @Nullable CardinalityLimiter limiter;

		private @Nullable OperationRecorder directRecorder;

		private @Nullable OperationDurations durations;

		private List<ObservationPredicate> predicates = List.of();

		private int maxOperations = DEFAULT_MAX_OPERATIONS;

		private SettingNames settingNames = SettingNames.BUILDER;

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
		 * Sets the limits operation tag values pass: the per-label limits of the duration
		 * histogram's Prometheus name and the series cap of the in-flight gauge's. Give
		 * the same limiter to the observation handler, which applies them to
		 * {@code result} and {@code error} and counts each call.
		 * @param limiter the limiter, or {@code null} for none
		 * @return this builder
		 */
		public Builder cardinalityLimiter(CardinalityLimiter limiter) {
			this.limiter = limiter;
			return this;
		}

		/**
		 * Records operations straight into the meter handler's series instead of through
		 * an observation. Use it only when no handler but the {@link OperationRecorder}
		 * would see operation observations: no tracing, no other handler. Operations the
		 * registry's predicates switch off by name keep going through the (then no-op)
		 * observation.
		 * @param recorder the observation handler whose series the calls go to
		 * @param predicates the observation registry's predicates
		 * @return this builder
		 */
		public Builder directRecording(OperationRecorder recorder, List<ObservationPredicate> predicates) {
			this.directRecorder = Objects.requireNonNull(recorder, "recorder");
			this.predicates = List.copyOf(predicates);
			return this;
		}

		/**
		 * Sets where the observation handler records durations, when it is not the direct
		 * path's series cache: it decides which families an operation exposes.
		 * @param durations the handler's durations, {@link OperationRecorder#durations()}
		 * @return this builder
		 */
		public Builder durations(OperationDurations durations) {
			this.durations = Objects.requireNonNull(durations, "durations");
			return this;
		}

		/**
		 * Sets the most distinct undeclared operations recorded. Declared operations are
		 * always recorded and do not count; calls of further undeclared operations run
		 * unrecorded, and each is counted as a recording failure.
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
		 * Sets how messages name a setting the user can change: the builder method in
		 * plain Java, the property on the Spring Boot path.
		 * @param settingNames how to name settings
		 * @return this builder
		 */
		public Builder settingNames(SettingNames settingNames) {
			this.settingNames = Objects.requireNonNull(settingNames, "settingNames");
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
