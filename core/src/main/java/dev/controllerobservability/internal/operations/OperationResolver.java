package dev.controllerobservability.internal.operations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Predicate;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.metrics.BucketRules;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.MetricNames;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Visibility;
import dev.controllerobservability.operations.OperationDefinition;
import dev.controllerobservability.operations.OperationDescriptor;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;

/**
 * Turns a call's operation name and tags into what {@link OperationRecorder} records: the
 * operation's names through the {@link NamingPolicy}, its definition, the admission of
 * undeclared operations up to a limit, and the label values through the cardinality
 * limits. Each name is resolved once; when calls are recorded directly, each {@link Tags}
 * instance too, so that a call with tags seen before finds its {@link Resolved} (and
 * through it its series) without allocating.
 */
public final class OperationResolver {

	/** Most label sets per operation whose resolution is remembered. */
	public static final int MAX_CACHED_LABEL_SETS = 1024;

	private static final int RECENT_SLOTS = 1024;

	private final NamingPolicy naming;

	private final List<String> labelKeys;

	private final Map<String, OperationDefinition> definitions;

	private final RecordingFailures failures;

	private final @Nullable CardinalityLimiter limiter;

	private final int maxOperations;

	private final SettingNames settingNames;

	/** Most spellings of operation names whose resolution is remembered. */
	private final int maxCachedNames;

	private final ConcurrentMap<String, OperationDescriptor> descriptors = new ConcurrentHashMap<>();

	private final Set<String> admitted = ConcurrentHashMap.newKeySet();

	/**
	 * The resolutions of calls by operation name and the caller's {@link Tags} instance,
	 * or {@code null} when calls go through observations (and resolve each time).
	 */
	private final @Nullable ConcurrentMap<String, ConcurrentMap<Tags, Remembered>> remembered;

	/**
	 * The resolutions found last, by the hash of operation name and tags: one read finds
	 * a call's resolution where the maps above take two. A slot holds the last one found
	 * there; a miss looks in the maps.
	 */
	private final @Nullable Remembered @Nullable [] recent;

	/**
	 * Creates a resolver.
	 * @param naming the naming policy, whose namespace every operation metric starts with
	 * @param labelKeys the label keys every operation metric carries
	 * @param definitions per-operation settings by snake_case name
	 * @param limiter the limits label values pass, or {@code null} for none
	 * @param maxOperations the most distinct undeclared operations recorded
	 * @param failures where refused operations and unknown tags are reported
	 * @param settingNames how messages name a setting the user can change
	 * @param remembersTags whether to remember the resolution of each {@link Tags}
	 * instance, for calls recorded directly
	 */
	public OperationResolver(NamingPolicy naming, List<String> labelKeys, Map<String, OperationDefinition> definitions,
			@Nullable CardinalityLimiter limiter, int maxOperations, RecordingFailures failures,
			SettingNames settingNames, boolean remembersTags) {
		this.settingNames = settingNames;
		this.naming = naming;
		this.labelKeys = List.copyOf(labelKeys);
		this.definitions = Map.copyOf(definitions);
		this.limiter = limiter;
		this.maxOperations = maxOperations;
		this.failures = failures;
		this.maxCachedNames = 4 * (maxOperations + this.definitions.size());
		this.remembered = remembersTags ? new ConcurrentHashMap<>() : null;
		this.recent = remembersTags ? new Remembered[RECENT_SLOTS] : null;
	}

	/**
	 * Resolves a call, from what is remembered for its {@link Tags} instance when it can.
	 * Never throws: a call that cannot be recorded resolves to one that runs unrecorded
	 * and counts a recording failure.
	 * @param operation operation name such as {@code bind}, or {@code null}
	 * @param tags the caller's tags, or {@code null}
	 * @return the resolution
	 */
	public Resolved resolve(@Nullable String operation, @Nullable Iterable<Tag> tags) {
		if (this.remembered == null) {
			return bind(operation, tags);
		}
		Tags key = (tags instanceof Tags given) ? given : (tags != null) ? null : Tags.empty();
		// No name is remembered: resolving it tells the caller what is wrong.
		if (key != null && operation != null) {
			int hash = Remembered.hash(operation, key);
			int slot = hash & (RECENT_SLOTS - 1);
			Remembered found = this.recent[slot];
			if (found != null && found.matches(hash, operation, key)) {
				return found.resolved;
			}
			ConcurrentMap<Tags, Remembered> known = this.remembered.get(operation);
			found = (known != null) ? known.get(key) : null;
			if (found != null) {
				// A plain write: the entry's fields are final, so a reader sees it whole.
				this.recent[slot] = found;
				return found.resolved;
			}
		}
		Resolved resolved = bind(operation, tags);
		if (key != null && operation != null && isCacheable(key, resolved)) {
			remember(operation, key, resolved);
		}
		return resolved;
	}

	/**
	 * Resolves a call without remembering it, for a handle. Never throws.
	 * @param operation operation name such as {@code bind}, or {@code null}
	 * @param tags the caller's tags, or {@code null}
	 * @return the resolution
	 */
	public Resolved bind(@Nullable String operation, @Nullable Iterable<Tag> tags) {
		OperationDescriptor descriptor;
		try {
			descriptor = describe(operation);
			if (!admit(descriptor)) {
				return new Resolved(null, Tags.empty(), "start of operation " + descriptor.operation(),
						refusal(descriptor));
			}
			return new Resolved(descriptor, labels(descriptor, tags), null, null);
		}
		catch (RuntimeException ex) {
			return new Resolved(null, Tags.empty(), "start of operation " + operation, ex);
		}
	}

	/**
	 * The caller's tags whose resolution is remembered for an operation.
	 * @param operation the operation name as the caller spells it
	 * @return the tags
	 */
	public Set<Tags> cachedTags(String operation) {
		Map<Tags, Remembered> known = (this.remembered != null) ? this.remembered.get(operation) : null;
		return (known != null) ? Set.copyOf(known.keySet()) : Collections.emptySet();
	}

	private void remember(String operation, Tags tags, Resolved resolved) {
		ConcurrentMap<Tags, Remembered> known = this.remembered.get(operation);
		if (known == null && this.remembered.size() < this.maxCachedNames) {
			known = this.remembered.computeIfAbsent(operation, (name) -> new ConcurrentHashMap<>());
		}
		if (known != null && known.size() < MAX_CACHED_LABEL_SETS) {
			known.putIfAbsent(tags, new Remembered(Remembered.hash(operation, tags), operation, tags, resolved));
		}
	}

	/**
	 * Whether a resolution may be remembered for a caller's tags: values longer than the
	 * limiter keeps would make the cache hold more than the series it stands for.
	 */
	private boolean isCacheable(Tags tags, Resolved resolved) {
		if (!resolved.isRecorded()) {
			return false;
		}
		int longest = (this.limiter != null) ? this.limiter.maxLabelValueLength() : Integer.MAX_VALUE;
		for (Tag tag : tags) {
			if (tag.getValue().length() > longest || tag.getKey().length() > longest) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The resolved names, help texts, buckets and label keys of an operation.
	 * @param operation operation name such as {@code apply-packing}
	 * @return its descriptor
	 * @throws IllegalArgumentException if the name is {@code null} or has no valid
	 * snake_case form
	 */
	public OperationDescriptor describe(@Nullable String operation) {
		if (operation == null) {
			throw new IllegalArgumentException("Operation name must not be null; name the operation, such as 'bind'");
		}
		OperationDescriptor existing = this.descriptors.get(operation);
		if (existing != null) {
			return existing;
		}
		return (this.descriptors.size() < this.maxCachedNames)
				? this.descriptors.computeIfAbsent(operation, this::resolve) : resolve(operation);
	}

	/**
	 * Whether an operation may be recorded: declared operations always are, undeclared
	 * ones while fewer than the most undeclared operations have been recorded, whatever
	 * the order of the calls. A refusal is not recorded here: the caller records
	 * {@link #refusal(OperationDescriptor)} for every call it runs unrecorded.
	 * @param descriptor the operation
	 * @return whether to record it
	 */
	public boolean admit(OperationDescriptor descriptor) {
		String name = descriptor.operation();
		if (this.definitions.containsKey(name) || this.admitted.contains(name)) {
			return true;
		}
		synchronized (this.admitted) {
			if (this.admitted.contains(name) || this.admitted.size() < this.maxOperations) {
				this.admitted.add(name);
				return true;
			}
		}
		return false;
	}

	/**
	 * Why an operation {@link #admit(OperationDescriptor) is not admitted}, as the
	 * recording failure of each of its calls.
	 * @param descriptor the operation
	 * @return the failure to record
	 */
	public IllegalStateException refusal(OperationDescriptor descriptor) {
		String name = descriptor.operation();
		return new IllegalStateException("Operation '" + name + "' is not recorded: " + this.maxOperations
				+ " distinct undeclared operations are recorded already, the most allowed. Declare it with "
				+ this.settingNames.of(Setting.OPERATION_DEFINITIONS) + ", raise "
				+ this.settingNames.of(Setting.MAX_OPERATIONS) + ", or keep per-call values out of operation "
				+ "names (they belong in operation tags).");
	}

	/**
	 * The label values of a call: every configured key, {@code none} where not given,
	 * through the cardinality limits: the per-label limits of the duration histogram and
	 * the series cap of the in-flight gauge, whose label sets these are. A key that is
	 * not configured is dropped and reported. Replacements are not counted here but by
	 * the series, for every call it records.
	 * @param descriptor the operation
	 * @param tags the caller's tags, or {@code null}
	 * @return the labels
	 */
	public Tags labels(OperationDescriptor descriptor, @Nullable Iterable<Tag> tags) {
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
									+ this.settingNames.of(Setting.OPERATION_TAGS) + " or stop passing it."));
				}
				else if (!tag.getValue().isEmpty()) {
					keyValues[2 * index + 1] = tag.getValue();
				}
			}
		}
		if (this.limiter != null) {
			// Nothing is counted here: the series counts each call it records
			// (OperationSeries), whichever path reached it.
			for (int i = 1; i < keyValues.length; i += 2) {
				keyValues[i] = this.limiter.categorizeUncounted(descriptor.familyName(), keyValues[i - 1],
						keyValues[i]);
			}
			this.limiter.admitOrOverflow(descriptor.inFlightFamilyName(), keyValues);
		}
		return Tags.of(keyValues);
	}

	/**
	 * The families an operation exposes, as the Prometheus text format will show them.
	 * @param operation operation name such as {@code bind}
	 * @param extraLabels label names every controller metric gets besides its own
	 * @param defaultBuckets the shared duration buckets, in seconds
	 * @param exposesMax whether an operation's durations keep a {@code _max} gauge
	 * @return the duration histogram, its {@code _max} gauge if the durations keep one,
	 * and the in-flight gauge
	 */
	public List<ExposedFamily> families(String operation, Collection<String> extraLabels, List<Double> defaultBuckets,
			Predicate<OperationDescriptor> exposesMax) {
		OperationDescriptor descriptor = describe(operation);
		Map<String, String> labels = new TreeMap<>();
		extraLabels.forEach((label) -> labels.put(label, ""));
		descriptor.labelKeys().forEach((label) -> labels.put(label, ""));
		Map<String, String> withOutcome = new TreeMap<>(labels);
		withOutcome.put(MetricConventions.RESULT_LABEL, "");
		withOutcome.put(MetricConventions.ERROR_LABEL, "");
		List<Double> buckets = descriptor.bucketSeconds(defaultBuckets);
		List<ExposedFamily> families = new ArrayList<>();
		families.add(new ExposedFamily(descriptor.familyName(), "histogram", descriptor.durationDescription(),
				List.of(withOutcome), buckets));
		if (exposesMax.test(descriptor)) {
			families.add(new ExposedFamily(descriptor.familyName() + "_max", "gauge", descriptor.durationDescription(),
					List.of(withOutcome), List.of()));
		}
		families.add(new ExposedFamily(descriptor.inFlightFamilyName(), "gauge", descriptor.inFlightDescription(),
				List.of(labels), List.of()));
		return families;
	}

	private OperationDescriptor resolve(String operation) {
		return describe(this.naming, this.labelKeys, this.definitions, operation);
	}

	/**
	 * The resolved names, help texts, buckets and label keys of an operation, without a
	 * resolver: what start-up checks compare before anything is registered.
	 * @param naming the naming policy, whose namespace every operation metric starts with
	 * @param labelKeys the label keys every operation metric carries
	 * @param definitions per-operation settings by snake_case name
	 * @param operation operation name such as {@code apply-packing}
	 * @return its descriptor
	 * @throws IllegalArgumentException if the name has no valid snake_case form
	 */
	public static OperationDescriptor describe(NamingPolicy naming, List<String> labelKeys,
			Map<String, OperationDefinition> definitions, String operation) {
		String name = MetricNames.toSnakeCase(Objects.requireNonNull(operation, "operation must not be null"));
		if (!MetricNames.isSnakeCase(name)) {
			throw new IllegalArgumentException("Operation name '" + operation + "' has no valid metric name form ('"
					+ name + "'); use letters, digits, '-' or '_', starting with a letter, such as 'apply-packing'");
		}
		OperationDefinition definition = definitions.getOrDefault(name, OperationDefinition.DEFAULT);
		String subsystem = definition.subsystem();
		String stem = ((subsystem != null) ? subsystem + "." : "") + name;
		String baseName = naming.meterName(stem);
		String readable = name.replace('_', ' ');
		String description = annotate(definition, (definition.description() != null) ? definition.description()
				: "Duration of " + readable + " operations in seconds.");
		List<Duration> buckets = List.of(BucketRules.durations(definition.buckets()));
		return new OperationDescriptor(name, baseName, description,
				annotate(definition, "Number of " + readable + " operations in flight."), buckets,
				List.copyOf(labelKeys),
				naming.exposedName(stem.replace('.', '_') + "_" + MetricConventions.DURATION_SUFFIX + "_seconds"),
				definition.stability());
	}

	private static String annotate(OperationDefinition definition, String help) {
		return (definition.stability() != null)
				? StabilityPolicy.help(definition.stability(), Visibility.VISIBLE, null, help) : help;
	}

	/**
	 * A remembered resolution with the operation name and tags it was found for.
	 */
	private record Remembered(int hash, String operation, Tags tags, Resolved resolved) {

		static int hash(String operation, Tags tags) {
			int hash = 31 * operation.hashCode() + tags.hashCode();
			return hash ^ (hash >>> 16);
		}

		boolean matches(int hash, String operation, Tags tags) {
			return this.hash == hash && (this.tags == tags || this.tags.equals(tags))
					&& (this.operation == operation || this.operation.equals(operation));
		}

	}

	/**
	 * A resolved call: the operation and its label values, or why it runs unrecorded.
	 * {@link OperationRecorder} keeps the series of a call recorded directly here, so
	 * that the next call with it reaches the meters without a lookup.
	 */
	public static final class Resolved {

		final @Nullable OperationDescriptor descriptor;

		final Tags labels;

		/** What an unrecorded call records as its failure, and why. */
		final @Nullable String unrecordedAction;

		final @Nullable RuntimeException unrecordedBecause;

		/** The series a direct recording goes to, once the recorder has found it. */
		volatile OperationRecorder.@Nullable Series series;

		/** Whether the recorder leaves this call to observations for good. */
		volatile boolean observed;

		Resolved(@Nullable OperationDescriptor descriptor, Tags labels, @Nullable String unrecordedAction,
				@Nullable RuntimeException unrecordedBecause) {
			this.descriptor = descriptor;
			this.labels = labels;
			this.unrecordedAction = unrecordedAction;
			this.unrecordedBecause = unrecordedBecause;
		}

		/**
		 * Whether the call is recorded.
		 * @return {@code false} when its name is {@code null} or invalid, or too many
		 * operations are recorded already
		 */
		public boolean isRecorded() {
			return this.descriptor != null;
		}

		/**
		 * The label values, after cardinality limits.
		 * @return every label key of the operation with its value, empty when unrecorded
		 */
		public Tags labels() {
			return this.labels;
		}

	}

}
