package dev.controllerobservability.catalog;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.catalog.SelfMetrics;
import dev.controllerobservability.exposition.ExposedFamily;
import dev.controllerobservability.internal.catalog.CatalogHistograms;
import dev.controllerobservability.internal.catalog.HistogramBuckets;
import dev.controllerobservability.internal.catalog.LabelSetIndex;
import dev.controllerobservability.internal.catalog.LiveObjects;
import dev.controllerobservability.internal.catalog.ObjectSeries;
import dev.controllerobservability.internal.catalog.SeriesCache;
import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.internal.settings.Setting;
import dev.controllerobservability.internal.settings.SettingNames;
import dev.controllerobservability.internal.stability.StabilityPolicy;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.internal.stability.Visibility;

/**
 * Records the metrics of a {@link MetricCatalog} by their declared names. Example:
 *
 * <pre>{@code
 * metrics.counter("nodes_launched_total", "provisioner", "gpu", "zone", node.zone()).increment();
 * metrics.gauge("pending_pods", "provisioner", "gpu").set(queue.size());
 * metrics.histogram("packing_ratio", "provisioner", "gpu").observe(0.83);
 * }</pre>
 * <p>
 * Declared metrics are registered at start-up with their stability-annotated help text;
 * counters and histograms whose label values are all known are present at 0 from then.
 * Hidden and disabled metrics are not registered and their handles record nothing. A
 * metric that replaces an old name is recorded under both while the old name is visible.
 * Label values pass the cardinality limits. An undeclared name, a type mismatch or a
 * wrong set of label keys (a {@code null} label array among them) is a programming error
 * and throws {@link IllegalArgumentException}; a failure of the registry is counted and
 * logged and never reaches the caller.
 */
public class ControllerMetrics implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ControllerMetrics.class);

	private final SettingNames settingNames;

	private final MeterRegistry registry;

	private final MetricCatalog catalog;

	private final CardinalityLimiter limiter;

	private final RecordingFailures failures;

	private final double[] defaultBuckets;

	/** Where histograms are recorded exactly, or {@code null} on another registry. */
	private final @Nullable CatalogHistograms exactHistograms;

	private final Map<String, Registered> metrics = new LinkedHashMap<>();

	/** The summaries of histograms whose buckets were found exact. */
	private final Set<DistributionSummary> checkedSummaries = ConcurrentHashMap.newKeySet();

	/** The series of one-label counters, found by name, key and value in one lookup. */
	private final LabelSetIndex<MetricCounter> oneLabelCounters = new LabelSetIndex<>();

	private final List<CollectorRegistration> collectors = new CopyOnWriteArrayList<>();

	/** The series of per-object metrics by their object, and their time to live. */
	private final LiveObjects liveObjects;

	/**
	 * Registers the catalog's metrics and the stability self-metrics.
	 * @param registry where the meters go
	 * @param catalog the declared metrics
	 * @param policy which metrics are visible, deprecated, hidden or disabled
	 * @param limiter the cardinality limits label values pass
	 * @param failures where recording failures go
	 * @param defaultBuckets histogram buckets of metrics declared without their own
	 */
	public ControllerMetrics(MeterRegistry registry, MetricCatalog catalog, StabilityPolicy policy,
			CardinalityLimiter limiter, RecordingFailures failures, List<Double> defaultBuckets) {
		this(registry, catalog, policy, limiter, failures, defaultBuckets, SettingNames.BUILDER);
	}

	/**
	 * Registers every declared metric, naming settings in messages as the path that wired
	 * it sets them.
	 * @param registry the registry
	 * @param catalog the declared metrics
	 * @param policy which metrics are visible, deprecated or hidden
	 * @param limiter the cardinality limits
	 * @param failures where recording failures go
	 * @param defaultBuckets the shared duration buckets, in seconds
	 * @param settingNames how messages name a setting
	 */
	public ControllerMetrics(MeterRegistry registry, MetricCatalog catalog, StabilityPolicy policy,
			CardinalityLimiter limiter, RecordingFailures failures, List<Double> defaultBuckets,
			SettingNames settingNames) {
		this(registry, catalog, policy, limiter, failures,
				CatalogHistograms.of(registry,
						NamingPolicy.builder(catalog.namespace()).durationBuckets(defaultBuckets).build(),
						new ClaimedFamilies(settingNames)),
				defaultBuckets, settingNames);
	}

	/**
	 * Registers every declared metric, recording histograms into exact histograms where
	 * the registry allows them.
	 * @param registry the registry
	 * @param catalog the declared metrics
	 * @param policy which metrics are visible, deprecated or hidden
	 * @param limiter the cardinality limits
	 * @param failures where recording failures go
	 * @param exactHistograms where histograms are recorded exactly
	 * ({@link CatalogHistograms#of}), or {@code null} to record them as Micrometer
	 * distribution summaries
	 * @param defaultBuckets the shared duration buckets, in seconds
	 * @param settingNames how messages name a setting
	 * @throws InvalidMetricDefinitionException if a histogram cannot be recorded exactly
	 * on the registry ({@link HistogramBuckets})
	 */
	public ControllerMetrics(MeterRegistry registry, MetricCatalog catalog, StabilityPolicy policy,
			CardinalityLimiter limiter, RecordingFailures failures, @Nullable CatalogHistograms exactHistograms,
			List<Double> defaultBuckets, SettingNames settingNames) {
		this.settingNames = settingNames;
		this.exactHistograms = exactHistograms;
		this.registry = registry;
		this.catalog = catalog;
		this.limiter = limiter;
		this.failures = failures;
		this.defaultBuckets = defaultBuckets.stream().mapToDouble(Double::doubleValue).toArray();
		this.liveObjects = new LiveObjects(registry.config().clock());
		Set<String> bucketless = HistogramBuckets.bucketless(registry, exactHistograms != null, catalog, policy,
				defaultBuckets, settingNames);
		bucketless.forEach((name) -> logger.info("Histogram '{}' is recorded without buckets on the "
				+ "SimpleMeterRegistry: Micrometer would count its values in the wrong buckets. Its _count, _sum and "
				+ "_max are exact. Declared histograms are exact on a PrometheusMeterRegistry.", name));
		SelfMetrics self = new SelfMetrics(registry, catalog.namespace());
		for (MetricDefinition definition : catalog.definitions()) {
			Version deprecated = MetricCatalog.deprecatedVersion(definition);
			Visibility visibility = policy.visibility(catalog.exposedName(definition.name()), definition.stability(),
					deprecated);
			self.count(definition.stability(), visibility, deprecated);
			Alias alias = null;
			if (definition.replaces() != null) {
				Version renamedIn = MetricCatalog.renamedIn(definition);
				Visibility aliasVisibility = policy.visibility(catalog.exposedName(definition.replaces()),
						definition.stability(), renamedIn);
				// The old name is deprecated from the rename on, even before that
				// version.
				aliasVisibility = (aliasVisibility == Visibility.VISIBLE) ? Visibility.DEPRECATED : aliasVisibility;
				self.count(definition.stability(), aliasVisibility, renamedIn);
				if (aliasVisibility.isExposed()) {
					alias = new Alias(catalog.meterName(definition.replaces(), definition.type()),
							catalog.exposedName(definition.replaces()),
							StabilityPolicy.help(definition.stability(), aliasVisibility, renamedIn, definition.help())
									+ " Replaced by " + catalog.exposedName(definition.name()) + ".");
				}
			}
			String help = StabilityPolicy.help(definition.stability(), visibility, deprecated, definition.help());
			Registered registered = new Registered(definition, visibility.isExposed(),
					catalog.meterName(definition.name(), definition.type()), help, alias,
					catalog.exposedName(definition.name()), new SeriesCache<>(definition.name(), definition.labels(),
							limiter.maxSeriesPerMetric(), this.oneLabelCounters));
			// Interned, as the literals callers pass are: a lookup then matches by
			// identity
			// instead of comparing the characters.
			this.metrics.put(definition.name().intern(), registered);
			PerObject perObject = definition.perObject();
			if (perObject != null && registered.exposed) {
				Duration timeToLive = perObject.timeToLive();
				registered.objects = new ObjectSeries(this.liveObjects, definition.labels(), perObject.labels().size(),
						perObject.kind(), (timeToLive != null) ? timeToLive.toNanos() : 0,
						(values) -> limiter.release(registered.exposedName, values));
			}
			registered.bucketless = bucketless.contains(definition.name());
			presetKnownSeries(registered);
		}
	}

	/**
	 * Whether a counter may add an amount, or a histogram observe a value: finite and 0
	 * or more, so that a counter and a histogram's sum only go up.
	 */
	private static boolean isCountable(double amount) {
		return amount >= 0 && amount < Double.POSITIVE_INFINITY;
	}

	/**
	 * The catalog this records.
	 * @return the catalog
	 */
	MetricCatalog catalog() {
		return this.catalog;
	}

	/**
	 * A series of a declared counter with one label, found without allocating once it has
	 * been used.
	 * @param name declared name, such as {@code nodes_launched_total}
	 * @param key its label key
	 * @param value the label value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the counter or the label key is not declared
	 */
	public MetricCounter counter(String name, String key, String value) {
		if (name != null && key != null && value != null) {
			MetricCounter cached = this.oneLabelCounters.get(name, key, value);
			if (cached != null) {
				return cached;
			}
		}
		return counter(name, new String[] { key, value });
	}

	/**
	 * A series of a declared counter.
	 * @param name declared name, such as {@code nodes_launched_total}
	 * @param labelKeyValues every declared label key, each followed by its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the counter or a label key is not declared
	 */
	public MetricCounter counter(String name, String... labelKeyValues) {
		Registered metric = this.metrics.get(name);
		if (metric != null && labelKeyValues != null && metric.definition.type() == MetricType.COUNTER) {
			if (metric.objects != null) {
				ObjectSeries.Series series = metric.objects.cached(labelKeyValues);
				if (series != null) {
					return (MetricCounter) series.handle();
				}
			}
			else {
				MetricCounter cached = metric.counters.get(labelKeyValues);
				if (cached != null) {
					return cached;
				}
			}
		}
		metric = lookup(name, MetricType.COUNTER);
		if (metric.objects != null) {
			ObjectSeries.Series series = objectCounter(name, metric, labelKeyValues);
			return (series != null) ? (MetricCounter) series.handle() : MetricCounter.NOOP;
		}
		Tags tags = tags(metric, labelKeyValues);
		MetricCounter counter = register(name, metric, tags);
		if (counter != MetricCounter.NOOP || !metric.exposed) {
			// A registration that failed is tried again on the next call.
			metric.counters.remember(labelKeyValues, tags, counter);
		}
		return counter;
	}

	/**
	 * A series of a declared counter about one object.
	 * @param name declared name of a per-object counter
	 * @param object the object, whose identity labels the series carries
	 * @param labelKeyValues the other label keys, each followed by its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the counter is not declared per object, or a
	 * label key is not declared
	 */
	public MetricCounter counter(String name, ObjectRef object, String... labelKeyValues) {
		return counter(name, withObject(name, object, labelKeyValues, MetricType.COUNTER));
	}

	/**
	 * A series of a declared counter about one object, without other labels; found
	 * without allocating once it has been used.
	 * @param name declared name of a per-object counter
	 * @param object the object
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the counter is not declared per object, or has
	 * other labels
	 */
	public MetricCounter counter(String name, ObjectRef object) {
		return counter(name, object, (String) null, (String) null);
	}

	/**
	 * A series of a declared counter about one object, with one other label; found
	 * without allocating once it has been used.
	 * @param name declared name of a per-object counter
	 * @param object the object
	 * @param key the other label's key
	 * @param value its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the counter is not declared per object, or a
	 * label key is not declared
	 */
	public MetricCounter counter(String name, ObjectRef object, @Nullable String key, @Nullable String value) {
		if (cachedHandle(name, object, key, value, MetricType.COUNTER,
				MetricType.COUNTER) instanceof MetricCounter counter) {
			return counter;
		}
		String[] labels = withObject(name, object, otherLabel(key, value), MetricType.COUNTER);
		Registered metric = this.metrics.get(name);
		if (metric.objects == null) {
			return counter(name, labels);
		}
		ObjectSeries.Series series = remember(object, key, value, metric, objectCounter(name, metric, labels));
		return (series != null) ? (MetricCounter) series.handle() : MetricCounter.NOOP;
	}

	/**
	 * The handle of a per-object series a caller's object and other label led to before,
	 * or {@code null}.
	 */
	private @Nullable Object cachedHandle(String name, ObjectRef object, @Nullable String key, @Nullable String value,
			MetricType type, MetricType alternative) {
		Registered metric = this.metrics.get(name);
		if (metric == null || metric.objects == null || object == null || (key == null) != (value == null)) {
			return null;
		}
		if (metric.definition.type() != type && metric.definition.type() != alternative) {
			return null;
		}
		ObjectSeries.Series series = metric.objects.cached(object, key, value);
		return (series != null) ? series.handle() : null;
	}

	private static ObjectSeries.@Nullable Series remember(ObjectRef object, @Nullable String key,
			@Nullable String value, Registered metric, ObjectSeries.@Nullable Series series) {
		if (series != null) {
			metric.objects.remember(object, key, value, series);
		}
		return series;
	}

	private static String[] otherLabel(@Nullable String key, @Nullable String value) {
		return (key == null && value == null) ? new String[0] : new String[] { key, value };
	}

	private ObjectSeries.@Nullable Series objectCounter(String name, Registered metric, String[] labelKeyValues) {
		return objectSeries("registration of " + name, metric, labelKeyValues, (tags, created) -> {
			Counter primary = counter(metric.meterName, metric.help, metric, tags);
			Counter alias = (metric.alias != null) ? counter(metric.alias.meterName, metric.alias.help, metric, tags)
					: null;
			MetricCounter increment = increment(name, primary, alias);
			String[] keys = labelKeyValues.clone();
			created.handle((MetricCounter) (amount) -> {
				if (created.removed()) {
					counter(name, keys).increment(amount);
					return;
				}
				created.touch();
				increment.increment(amount);
			});
			return () -> unregister(primary, alias);
		});
	}

	/**
	 * The live series of a per-object metric for a caller's labels, created if there is
	 * none; {@code null} if its meters could not be registered, which is counted.
	 */
	private ObjectSeries.@Nullable Series objectSeries(String what, Registered metric, String[] labelKeyValues,
			ObjectSeries.Registrar registrar) {
		if (labelKeyValues == null) {
			tags(metric, null);
		}
		ObjectSeries.Series cached = metric.objects.cached(labelKeyValues);
		if (cached != null) {
			return cached;
		}
		try {
			return metric.objects.series(labelKeyValues, (keys) -> tags(metric, keys), registrar);
		}
		catch (ObjectSeries.RegistrationException ex) {
			this.failures.record(what, (RuntimeException) ex.getCause());
			return null;
		}
	}

	private void unregister(Meter... meters) {
		for (Meter meter : meters) {
			if (meter != null) {
				this.registry.remove(meter);
			}
		}
	}

	private MetricCounter register(String name, Registered metric, Tags tags) {
		if (!metric.exposed) {
			return MetricCounter.NOOP;
		}
		try {
			Counter primary = counter(metric.meterName, metric.help, metric, tags);
			Counter alias = (metric.alias != null) ? counter(metric.alias.meterName, metric.alias.help, metric, tags)
					: null;
			return increment(name, primary, alias);
		}
		catch (RuntimeException ex) {
			this.failures.record("registration of " + name, ex);
			return MetricCounter.NOOP;
		}
	}

	private MetricCounter increment(String name, Counter primary, @Nullable Counter alias) {
		return (amount) -> {
			if (!isCountable(amount)) {
				this.failures.record("increment of " + name, new IllegalArgumentException("Counter '" + name
						+ "' was given " + amount + "; a counter only goes up: give a finite amount of 0 or more"));
				return;
			}
			try {
				primary.increment(amount);
				if (alias != null) {
					alias.increment(amount);
				}
			}
			catch (RuntimeException ex) {
				this.failures.record("increment of " + name, ex);
			}
		};
	}

	/**
	 * A series of a declared gauge whose value the controller sets; 0 until set.
	 * @param name declared name, such as {@code pending_pods}
	 * @param labelKeyValues every declared label key, each followed by its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the gauge or a label key is not declared
	 */
	public MetricGauge gauge(String name, String... labelKeyValues) {
		Registered metric = lookup(name, MetricType.GAUGE);
		if (metric.objects != null) {
			ObjectSeries.Series cached = (labelKeyValues != null) ? metric.objects.cached(labelKeyValues) : null;
			if (cached != null && cached.handle() instanceof MetricGauge gauge) {
				return gauge;
			}
			return settable(name, objectGauge(name, metric, labelKeyValues));
		}
		Tags tags = tags(metric, labelKeyValues);
		if (!metric.exposed) {
			return MetricGauge.NOOP;
		}
		try {
			AtomicLong bits = metric.settable.computeIfAbsent(tags, (key) -> {
				AtomicLong value = new AtomicLong(Double.doubleToLongBits(0));
				registerGauge(metric, key, value, (state) -> Double.longBitsToDouble(state.get()));
				return value;
			});
			return (value) -> bits.set(Double.doubleToLongBits(value));
		}
		catch (RuntimeException ex) {
			this.failures.record("registration of " + name, ex);
			return MetricGauge.NOOP;
		}
	}

	/**
	 * A series of a declared gauge about one object, whose value the controller sets.
	 * @param name declared name of a per-object gauge
	 * @param object the object, whose identity labels the series carries
	 * @param labelKeyValues the other label keys, each followed by its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the gauge is not declared per object, or a
	 * label key is not declared
	 */
	public MetricGauge gauge(String name, ObjectRef object, String... labelKeyValues) {
		return gauge(name, withObject(name, object, labelKeyValues, MetricType.GAUGE));
	}

	/**
	 * A series of a declared gauge about one object, without other labels; found without
	 * allocating once it has been used.
	 * @param name declared name of a per-object gauge
	 * @param object the object
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the gauge is not declared per object, or has
	 * other labels
	 */
	public MetricGauge gauge(String name, ObjectRef object) {
		return gauge(name, object, (String) null, (String) null);
	}

	/**
	 * A series of a declared gauge about one object, with one other label; found without
	 * allocating once it has been used.
	 * @param name declared name of a per-object gauge
	 * @param object the object
	 * @param key the other label's key
	 * @param value its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the gauge is not declared per object, or a
	 * label key is not declared
	 */
	public MetricGauge gauge(String name, ObjectRef object, @Nullable String key, @Nullable String value) {
		if (cachedHandle(name, object, key, value, MetricType.GAUGE, MetricType.GAUGE) instanceof MetricGauge gauge) {
			return gauge;
		}
		String[] labels = withObject(name, object, otherLabel(key, value), MetricType.GAUGE);
		Registered metric = this.metrics.get(name);
		if (metric.objects == null) {
			return gauge(name, labels);
		}
		return settable(name, remember(object, key, value, metric, objectGauge(name, metric, labels)));
	}

	private ObjectSeries.@Nullable Series objectGauge(String name, Registered metric, String[] labelKeyValues) {
		return objectSeries("registration of " + name, metric, labelKeyValues, (tags, created) -> {
			AtomicLong bits = new AtomicLong(Double.doubleToLongBits(0));
			Meter[] meters = registerGauge(metric, tags, bits, (state) -> Double.longBitsToDouble(state.get()));
			String[] keys = labelKeyValues.clone();
			created.handle((MetricGauge) (value) -> {
				if (created.removed()) {
					gauge(name, keys).set(value);
					return;
				}
				created.touch();
				bits.set(Double.doubleToLongBits(value));
			});
			return () -> unregister(meters);
		});
	}

	/** What sets a per-object gauge's series, unless a function computes it. */
	private static MetricGauge settable(String name, ObjectSeries.@Nullable Series series) {
		if (series == null) {
			return MetricGauge.NOOP;
		}
		if (series.handle() instanceof MetricGauge gauge) {
			return gauge;
		}
		throw new IllegalArgumentException("Series " + series.tags() + " of gauge '" + name
				+ "' is computed by a function given to gauge(name, state, function, labels); it has no value to set");
	}

	/**
	 * Backs a series of a declared gauge by a function evaluated at scrape time.
	 * @param <T> the state type
	 * @param name declared name
	 * @param state the object the value is computed from; held strongly
	 * @param value computes the value from {@code state}
	 * @param labelKeyValues every declared label key, each followed by its value
	 * @throws IllegalArgumentException if the gauge or a label key is not declared
	 */
	public <T> void gauge(String name, T state, ToDoubleFunction<T> value, String... labelKeyValues) {
		Registered metric = lookup(name, MetricType.GAUGE);
		if (metric.objects != null) {
			// Registering again marks the series written, for its time to live.
			ObjectSeries.Series series = objectSeries("registration of " + name, metric, labelKeyValues,
					(tags, created) -> {
						Meter[] meters = registerGauge(metric, tags, state, value);
						created.handle(state);
						return () -> unregister(meters);
					});
			if (series != null) {
				series.touch();
			}
			return;
		}
		Tags tags = tags(metric, labelKeyValues);
		if (!metric.exposed) {
			return;
		}
		try {
			registerGauge(metric, tags, state, value);
		}
		catch (RuntimeException ex) {
			this.failures.record("registration of " + name, ex);
		}
	}

	/**
	 * A series of a declared histogram or summary.
	 * @param name declared name, such as {@code packing_duration_seconds}
	 * @param labelKeyValues every declared label key, each followed by its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the metric or a label key is not declared
	 */
	public MetricHistogram histogram(String name, String... labelKeyValues) {
		Registered metric = lookup(name, MetricType.HISTOGRAM, MetricType.SUMMARY);
		if (metric.objects != null) {
			ObjectSeries.Series cached = (labelKeyValues != null) ? metric.objects.cached(labelKeyValues) : null;
			ObjectSeries.Series series = (cached != null) ? cached : objectHistogram(name, metric, labelKeyValues);
			return (series != null) ? (MetricHistogram) series.handle() : MetricHistogram.NOOP;
		}
		Tags tags = tags(metric, labelKeyValues);
		if (!metric.exposed) {
			return MetricHistogram.NOOP;
		}
		try {
			return histogramSeries(name, metric, tags).observer;
		}
		catch (RuntimeException ex) {
			this.failures.record("registration of " + name, ex);
			return MetricHistogram.NOOP;
		}
	}

	/**
	 * A series of a declared histogram or summary about one object.
	 * @param name declared name of a per-object histogram or summary
	 * @param object the object, whose identity labels the series carries
	 * @param labelKeyValues the other label keys, each followed by its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the metric is not declared per object, or a
	 * label key is not declared
	 */
	public MetricHistogram histogram(String name, ObjectRef object, String... labelKeyValues) {
		return histogram(name, withObject(name, object, labelKeyValues, MetricType.HISTOGRAM, MetricType.SUMMARY));
	}

	/**
	 * A series of a declared histogram or summary about one object, without other labels;
	 * found without allocating once it has been used.
	 * @param name declared name of a per-object histogram or summary
	 * @param object the object
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the metric is not declared per object, or has
	 * other labels
	 */
	public MetricHistogram histogram(String name, ObjectRef object) {
		return histogram(name, object, (String) null, (String) null);
	}

	/**
	 * A series of a declared histogram or summary about one object, with one other label;
	 * found without allocating once it has been used.
	 * @param name declared name of a per-object histogram or summary
	 * @param object the object
	 * @param key the other label's key
	 * @param value its value
	 * @return the series; a no-op for hidden and disabled metrics
	 * @throws IllegalArgumentException if the metric is not declared per object, or a
	 * label key is not declared
	 */
	public MetricHistogram histogram(String name, ObjectRef object, @Nullable String key, @Nullable String value) {
		if (cachedHandle(name, object, key, value, MetricType.HISTOGRAM,
				MetricType.SUMMARY) instanceof MetricHistogram histogram) {
			return histogram;
		}
		String[] labels = withObject(name, object, otherLabel(key, value), MetricType.HISTOGRAM, MetricType.SUMMARY);
		Registered metric = this.metrics.get(name);
		if (metric.objects == null) {
			return histogram(name, labels);
		}
		ObjectSeries.Series series = remember(object, key, value, metric, objectHistogram(name, metric, labels));
		return (series != null) ? (MetricHistogram) series.handle() : MetricHistogram.NOOP;
	}

	private ObjectSeries.@Nullable Series objectHistogram(String name, Registered metric, String[] labelKeyValues) {
		return objectSeries("registration of " + name, metric, labelKeyValues, (tags, created) -> {
			HistogramSeries histogram = histogramSeries(name, metric, tags);
			String[] keys = labelKeyValues.clone();
			created.handle((MetricHistogram) (value) -> {
				if (created.removed()) {
					histogram(name, keys).observe(value);
					return;
				}
				created.touch();
				histogram.observer.observe(value);
			});
			return histogram.meters;
		});
	}

	/**
	 * Registers one series of a histogram or summary: what records into it, and how to
	 * remove it.
	 */
	private HistogramSeries histogramSeries(String name, Registered metric, Tags tags) {
		CatalogHistograms.Series primary;
		CatalogHistograms.Series alias = null;
		ObjectSeries.Meters meters;
		if (this.exactHistograms != null && metric.definition.type() == MetricType.HISTOGRAM) {
			primary = exactSeries(metric.exposedName, metric.help, metric, tags);
			if (metric.alias != null) {
				alias = exactSeries(metric.alias.exposedName, metric.alias.help, metric, tags);
			}
			CatalogHistograms exact = this.exactHistograms;
			meters = () -> {
				exact.remove(metric.exposedName, tags);
				if (metric.alias != null) {
					exact.remove(metric.alias.exposedName, tags);
				}
			};
		}
		else {
			DistributionSummary summary = checkedSummary(name, metric.meterName, metric.help, metric, tags);
			primary = summary::record;
			DistributionSummary aliasSummary = (metric.alias != null)
					? checkedSummary(name, metric.alias.meterName, metric.alias.help, metric, tags) : null;
			if (aliasSummary != null) {
				alias = aliasSummary::record;
			}
			meters = () -> {
				this.checkedSummaries.remove(summary);
				if (aliasSummary != null) {
					this.checkedSummaries.remove(aliasSummary);
				}
				unregister(summary, aliasSummary);
			};
		}
		CatalogHistograms.Series renamed = alias;
		MetricHistogram observer = (value) -> {
			if (!metric.accepts(value)) {
				this.failures.record("observation of " + name,
						new IllegalArgumentException("Histogram '" + name + "' was given " + value + "; "
								+ (metric.negative ? "observe finite values"
										: "its sum must only go up: observe finite values of 0 or more")));
				return;
			}
			try {
				primary.observe(value);
				if (renamed != null) {
					renamed.observe(value);
				}
			}
			catch (RuntimeException ex) {
				this.failures.record("observation of " + name, ex);
			}
		};
		return new HistogramSeries(observer, meters);
	}

	private CatalogHistograms.Series exactSeries(String family, String help, Registered metric, Tags tags) {
		return this.exactHistograms.series(family, help, metric.definition.labels(),
				metric.buckets(this.defaultBuckets), metric.negative, tags);
	}

	/**
	 * Exposes a series of a declared info metric (value 1).
	 * @param name declared name, such as {@code build_info}
	 * @param labelKeyValues every declared label key, each followed by its value
	 * @throws IllegalArgumentException if the metric or a label key is not declared
	 */
	public void info(String name, String... labelKeyValues) {
		Registered metric = lookup(name, MetricType.INFO);
		if (metric.objects != null) {
			ObjectSeries.Series series = objectSeries("registration of " + name, metric, labelKeyValues,
					(tags, created) -> {
						Meter[] meters = registerGauge(metric, tags, metric, (state) -> 1);
						created.handle(metric);
						return () -> unregister(meters);
					});
			if (series != null) {
				series.touch();
			}
			return;
		}
		Tags tags = tags(metric, labelKeyValues);
		if (metric.exposed) {
			try {
				registerGauge(metric, tags, metric, (state) -> 1);
			}
			catch (RuntimeException ex) {
				this.failures.record("registration of " + name, ex);
			}
		}
	}

	/**
	 * Computes a declared gauge's series from controller state at every scrape (see
	 * {@link #refreshCollectors()}).
	 * @param name declared gauge name, such as {@code pods_by_phase}
	 * @param collector reports the current series
	 * @throws IllegalArgumentException if the gauge is not declared or the collector is
	 * {@code null}
	 */
	public void collect(String name, MetricCollector collector) {
		Registered metric = lookup(name, MetricType.GAUGE);
		if (collector == null) {
			throw new IllegalArgumentException(
					"Collector of metric '" + name + "' is null; give a MetricCollector that reports its series");
		}
		if (!metric.exposed) {
			return;
		}
		try {
			MultiGauge primary = multiGauge(metric.meterName, metric.help, metric);
			MultiGauge alias = (metric.alias != null) ? multiGauge(metric.alias.meterName, metric.alias.help, metric)
					: null;
			this.collectors.add(new CollectorRegistration(metric, collector, primary, alias));
		}
		catch (RuntimeException ex) {
			this.failures.record("registration of " + name, ex);
		}
	}

	/**
	 * Runs every collector and replaces the series of its gauge with what it reported;
	 * series no longer reported are removed. Called before each Prometheus scrape.
	 */
	public void refreshCollectors() {
		for (CollectorRegistration registration : this.collectors) {
			try {
				registration.refresh(this);
			}
			catch (RuntimeException ex) {
				this.failures.record("collection of " + registration.metric.definition.name(), ex);
			}
		}
	}

	/**
	 * Removes every series of an object from every per-object metric at once: they are no
	 * longer exposed, their memory is freed, and so is their place under the series cap.
	 * A later record for the object starts its series anew from zero. A record racing
	 * with the removal lands either in the removed series or in the new one.
	 * @param object the object; its kind, when given, spares the series of other kinds in
	 * metrics that carry the kind, and is not looked at in metrics that do not
	 * @return how many series were removed
	 * @throws IllegalArgumentException if the object is {@code null}
	 */
	public int forget(ObjectRef object) {
		if (object == null) {
			throw new IllegalArgumentException(
					"The object to forget is null; give its identity, such as ObjectRef.of(\"prod\", \"web-tls\")");
		}
		String kind = (object.kind() != null) ? labelValue(object.kind()) : null;
		try {
			return this.liveObjects.forget(kind, labelValue(object.namespace()), labelValue(object.name()), null);
		}
		catch (RuntimeException ex) {
			this.failures.record("removal of the series of " + object, ex);
			return 0;
		}
	}

	/**
	 * Removes the series of an object from one per-object metric, such as a condition the
	 * object no longer has, leaving its other metrics alone.
	 * @param name declared name of a per-object metric
	 * @param object the object
	 * @return how many series were removed
	 * @throws IllegalArgumentException if the metric is not declared per object, or the
	 * object is {@code null}
	 */
	public int forget(String name, ObjectRef object) {
		Registered metric = perObjectMetric(name, object, MetricType.values());
		if (metric.objects == null) {
			return 0;
		}
		String kind = (object.kind() != null) ? labelValue(object.kind()) : null;
		try {
			return this.liveObjects.forget(kind, labelValue(object.namespace()), labelValue(object.name()),
					metric.objects);
		}
		catch (RuntimeException ex) {
			this.failures.record("removal of the series of " + object + " in " + name, ex);
			return 0;
		}
	}

	/**
	 * Removes now every per-object series that has not been written for its metric's time
	 * to live. A daemon thread does this every tenth of the shortest time to live (at
	 * least every 100 ms) while such a metric is declared; a series is removed at most
	 * that much after its time, never before.
	 * @return how many series were removed
	 */
	public int expireIdleSeries() {
		return this.liveObjects.expireIdleSeries();
	}

	/**
	 * How many objects have a series in a per-object metric.
	 * @return the count
	 */
	public int liveObjects() {
		return this.liveObjects.objects();
	}

	/** Stops removing idle per-object series; the series stay as they are. */
	@Override
	public void close() {
		this.liveObjects.close();
	}

	/** A label value as a series holds it: empty as {@code none}, long ones truncated. */
	private String labelValue(String value) {
		String kept = value.isEmpty() ? MetricConventions.NONE : value;
		int max = this.limiter.maxLabelValueLength();
		return (kept.length() > max) ? kept.substring(0, max) : kept;
	}

	/** A declared per-object metric, for an object given with it. */
	private Registered perObjectMetric(String name, ObjectRef object, MetricType... types) {
		Registered metric = lookup(name, types);
		if (metric.definition.perObject() == null) {
			throw new IllegalArgumentException("Metric '" + name + "' is not declared per object, so its series carry "
					+ "no object; declare it per object ("
					+ ((this.settingNames == SettingNames.PROPERTIES)
							? this.settingNames.of(Setting.metric(name).field("per-object")) + "=true"
							: "perObject() in " + this.settingNames.of(Setting.metric(name)))
					+ "), or give its labels " + metric.definition.labels() + " without an ObjectRef");
		}
		if (object == null) {
			throw new IllegalArgumentException("The object of metric '" + name + "' is null; give its identity, "
					+ "such as ObjectRef.of(\"prod\", \"web-tls\")");
		}
		return metric;
	}

	/** A caller's labels with the object's identity labels before them. */
	private String[] withObject(String name, ObjectRef object, String[] labelKeyValues, MetricType... types) {
		Registered metric = perObjectMetric(name, object, types);
		PerObject perObject = metric.definition.perObject();
		if (labelKeyValues == null) {
			tags(metric, null);
		}
		int identity = perObject.labels().size();
		String[] all = new String[2 * identity + labelKeyValues.length];
		int i = 0;
		if (perObject.kind()) {
			if (object.kind() == null) {
				throw new IllegalArgumentException("Metric '" + name + "' carries the object's kind, and " + object
						+ " has none; give it, such as ObjectRef.of(\"Certificate\", \"prod\", \"web-tls\")");
			}
			all[i++] = ObjectRef.KIND_LABEL;
			all[i++] = object.kind();
		}
		all[i++] = ObjectRef.NAMESPACE_LABEL;
		all[i++] = object.namespace();
		all[i++] = ObjectRef.NAME_LABEL;
		all[i++] = object.name();
		System.arraycopy(labelKeyValues, 0, all, i, labelKeyValues.length);
		return all;
	}

	/**
	 * The labels that name the object in each family of an exposed per-object metric (its
	 * old name and {@code _max} included), for the linter: they are bounded by the
	 * objects' lifecycle and the series cap.
	 * @return the labels by family name
	 */
	public Map<String, Set<String>> objectLabels() {
		Map<String, Set<String>> labels = new TreeMap<>();
		for (Registered metric : this.metrics.values()) {
			PerObject perObject = metric.definition.perObject();
			if (metric.objects == null || perObject == null) {
				continue;
			}
			Set<String> identity = Set.copyOf(perObject.labels());
			List<String> names = new ArrayList<>(List.of(metric.exposedName));
			if (metric.alias != null) {
				names.add(metric.alias.exposedName);
			}
			for (String name : names) {
				labels.put(name, identity);
				labels.put(name + "_max", identity);
			}
		}
		return labels;
	}

	/**
	 * The families the catalog exposes (declared metrics and the old names of renamed
	 * ones), whether or not they have series yet, as the Prometheus text format will show
	 * them. Hidden and disabled metrics are left out.
	 * @param extraLabels label names every controller metric gets besides its own, such
	 * as common tags
	 * @return the families
	 */
	public List<ExposedFamily> declaredFamilies(Collection<String> extraLabels) {
		List<ExposedFamily> families = new ArrayList<>();
		for (Registered metric : this.metrics.values()) {
			if (!metric.exposed) {
				continue;
			}
			Map<String, String> labels = new TreeMap<>();
			extraLabels.forEach((label) -> labels.put(label, ""));
			metric.definition.labels().forEach((label) -> labels.put(label, ""));
			addFamilies(families, metric, metric.exposedName, metric.help, labels);
			if (metric.alias != null) {
				addFamilies(families, metric, this.catalog.exposedName(metric.definition.replaces()), metric.alias.help,
						labels);
			}
		}
		return families;
	}

	private void addFamilies(List<ExposedFamily> families, Registered metric, String name, String help,
			Map<String, String> labels) {
		MetricType type = metric.definition.type();
		List<Double> buckets = (type == MetricType.HISTOGRAM)
				? Arrays.stream(metric.buckets(this.defaultBuckets)).boxed().toList() : List.of();
		String exposedType = switch (type) {
			case COUNTER -> "counter";
			case HISTOGRAM -> "histogram";
			case SUMMARY -> "summary";
			default -> "gauge";
		};
		families.add(new ExposedFamily(name, exposedType, help, List.of(labels), buckets));
		if ((type == MetricType.HISTOGRAM && !metric.negative) || type == MetricType.SUMMARY) {
			// The largest observation beside every distribution, as Micrometer shows it;
			// none for a histogram of negative values.
			families.add(new ExposedFamily(name + "_max", "gauge", help, List.of(labels), List.of()));
		}
	}

	private Registered lookup(String name, MetricType... types) {
		Registered metric = this.metrics.get(name);
		if (metric == null) {
			throw new IllegalArgumentException("Metric '" + name + "' is not declared; declared metrics are "
					+ this.catalog.names() + ". Declare it with " + this.settingNames.of(Setting.METRICS)
					+ ((this.settingNames == SettingNames.PROPERTIES) ? " or as a MetricDefinition bean." : "."));
		}
		MetricType type = metric.definition.type();
		if (!Arrays.asList(types).contains(type)) {
			throw new IllegalArgumentException("Metric '" + name + "' is declared as a " + type + ", not a " + types[0]
					+ "; use the " + type + " method of ControllerMetrics");
		}
		return metric;
	}

	private Tags tags(Registered metric, String @Nullable [] labelKeyValues) {
		return tags(metric, labelKeyValues, true);
	}

	private Tags tags(Registered metric, String @Nullable [] labelKeyValues, boolean capSeries) {
		List<String> labels = metric.definition.labels();
		if (labelKeyValues == null) {
			throw new IllegalArgumentException("Labels of metric '" + metric.definition.name()
					+ "' are a null array; give every label key of " + labels + ", each followed by its value");
		}
		if (labelKeyValues.length % 2 != 0) {
			throw new IllegalArgumentException("Labels of '" + metric.definition.name()
					+ "' must come as key, value pairs; got " + Arrays.toString(labelKeyValues));
		}
		String[] values = new String[labels.size()];
		for (int i = 0; i < labelKeyValues.length; i += 2) {
			if (labelKeyValues[i] == null) {
				throw new IllegalArgumentException(
						"A label key of metric '" + metric.definition.name() + "' is null; its labels are " + labels);
			}
			int index = labels.indexOf(labelKeyValues[i]);
			if (index < 0) {
				throw new IllegalArgumentException("Label '" + labelKeyValues[i] + "' is not declared for metric '"
						+ metric.definition.name() + "'; its labels are " + labels);
			}
			if (values[index] != null) {
				throw new IllegalArgumentException("Label '" + labelKeyValues[i] + "' of metric '"
						+ metric.definition.name() + "' is given twice; give each of " + labels + " once");
			}
			String value = labelKeyValues[i + 1];
			if (index < metric.identityLabels && (value == null || value.isEmpty())
					&& !labels.get(index).equals(ObjectRef.NAMESPACE_LABEL)) {
				throw new IllegalArgumentException("Label '" + labels.get(index) + "' of per-object metric '"
						+ metric.definition.name() + "' is " + ((value == null) ? "null" : "empty")
						+ "; it names the object: give the object's " + labels.get(index) + " from its metadata");
			}
			values[index] = (value != null && !value.isEmpty()) ? value : MetricConventions.NONE;
		}
		String[] keyValues = new String[labels.size() * 2];
		for (int i = 0; i < labels.size(); i++) {
			if (values[i] == null) {
				throw new IllegalArgumentException("Label '" + labels.get(i) + "' of metric '"
						+ metric.definition.name() + "' has no value; every series carries all of " + labels);
			}
			keyValues[2 * i] = labels.get(i);
			keyValues[2 * i + 1] = values[i];
		}
		if (!capSeries) {
			for (int i = 2 * metric.identityLabels + 1; i < keyValues.length; i += 2) {
				keyValues[i] = this.limiter.categorize(metric.exposedName, keyValues[i - 1], keyValues[i]);
			}
			return Tags.of(keyValues);
		}
		return this.limiter.limit(metric.exposedName, keyValues, metric.identityLabels);
	}

	/**
	 * A collector's series of one scrape: at most the series cap, the rest summed into
	 * the overflow series. Collectors report their series anew at every scrape, so the
	 * cap counts the series of this scrape rather than every series ever seen.
	 */
	private Map<Tags, Double> capCollected(Registered metric, Map<Tags, Double> values) {
		int cap = this.limiter.maxSeriesPerMetric();
		if (values.size() <= cap) {
			return values;
		}
		Map<Tags, Double> capped = new LinkedHashMap<>();
		Tags overflow = null;
		for (Map.Entry<Tags, Double> entry : values.entrySet()) {
			if (capped.size() < cap) {
				capped.put(entry.getKey(), entry.getValue());
			}
			else {
				if (overflow == null) {
					overflow = overflowTags(metric);
				}
				capped.merge(overflow, entry.getValue(), Double::sum);
			}
		}
		this.limiter.overflowed(metric.exposedName, values.size() - cap);
		return capped;
	}

	private static Tags overflowTags(Registered metric) {
		Tags tags = Tags.empty();
		for (String label : metric.definition.labels()) {
			tags = tags.and(label, CardinalityLimiter.OVERFLOW);
		}
		return tags;
	}

	private Counter counter(String meterName, String help, Registered metric, Tags tags) {
		return Counter.builder(meterName)
			.description(help)
			.baseUnit(metric.definition.unit())
			.tags(tags)
			.register(this.registry);
	}

	/**
	 * A histogram's summary, once its buckets are known to be exact. A meter filter (such
	 * as Spring Boot's {@code management.metrics.distribution.slo.*}) may give it other
	 * boundaries than the declared ones in any registry it reaches: boundaries Micrometer
	 * would bucket wrongly take the summary out of the registries again, and the call is
	 * refused, so that nothing wrong is exposed.
	 */
	private DistributionSummary checkedSummary(String name, String meterName, String help, Registered metric,
			Tags tags) {
		DistributionSummary summary = summary(meterName, help, metric, tags);
		if (metric.definition.type() != MetricType.HISTOGRAM || !this.checkedSummaries.add(summary)) {
			return summary;
		}
		List<MeterRegistry> registries = (this.registry instanceof CompositeMeterRegistry composite)
				? List.copyOf(composite.getRegistries()) : List.of(this.registry);
		for (MeterRegistry each : registries) {
			DistributionSummary own = (each == this.registry) ? summary
					: each.find(summary.getId().getName()).tags(summary.getId().getTags()).summary();
			double[] bounds = (own != null)
					? Arrays.stream(own.takeSnapshot().histogramCounts()).mapToDouble(CountAtBucket::bucket).toArray()
					: new double[0];
			String why = (bounds.length > 0) ? HistogramBuckets.wrongBounds(bounds) : null;
			if (why != null) {
				this.checkedSummaries.remove(summary);
				each.remove(own);
				this.registry.remove(summary);
				throw new IllegalStateException("Histogram '" + name + "' is not recorded: a meter filter gave it "
						+ "the boundaries " + Arrays.toString(bounds) + " on " + HistogramBuckets.describe(each)
						+ " instead of " + Arrays.toString(metric.buckets(this.defaultBuckets)) + ", and Micrometer "
						+ why + ". Remove that filter or setting for " + meterName
						+ " (such as management.metrics.distribution.slo." + meterName + ")");
			}
		}
		return summary;
	}

	private DistributionSummary summary(String meterName, String help, Registered metric, Tags tags) {
		DistributionSummary.Builder builder = DistributionSummary.builder(meterName)
			.description(help)
			.baseUnit(metric.definition.unit())
			.tags(tags);
		if (metric.definition.type() == MetricType.HISTOGRAM && !metric.bucketless) {
			builder.serviceLevelObjectives(metric.buckets(this.defaultBuckets));
		}
		else {
			// An empty bucket list keeps the meter filter's default buckets off: a
			// summary.
			builder.serviceLevelObjectives();
		}
		return builder.register(this.registry);
	}

	private <T> Meter[] registerGauge(Registered metric, Tags tags, T state, ToDoubleFunction<T> value) {
		Gauge primary = Gauge.builder(metric.meterName, state, value)
			.description(metric.help)
			.baseUnit(metric.definition.unit())
			.tags(tags)
			.strongReference(true)
			.register(this.registry);
		if (metric.alias == null) {
			return new Meter[] { primary };
		}
		Gauge alias = Gauge.builder(metric.alias.meterName, state, value)
			.description(metric.alias.help)
			.baseUnit(metric.definition.unit())
			.tags(tags)
			.strongReference(true)
			.register(this.registry);
		return new Meter[] { primary, alias };
	}

	private MultiGauge multiGauge(String meterName, String help, Registered metric) {
		return MultiGauge.builder(meterName)
			.description(help)
			.baseUnit(metric.definition.unit())
			.register(this.registry);
	}

	private void presetKnownSeries(Registered metric) {
		MetricDefinition definition = metric.definition;
		boolean presettable = definition.type() == MetricType.COUNTER || definition.type() == MetricType.HISTOGRAM
				|| definition.type() == MetricType.SUMMARY;
		if (!metric.exposed || !presettable || !definition.labelValues().keySet().containsAll(definition.labels())) {
			return;
		}
		List<String[]> combinations = new ArrayList<>();
		combinations.add(new String[0]);
		for (String label : definition.labels()) {
			List<String[]> next = new ArrayList<>();
			for (String[] prefix : combinations) {
				for (String value : definition.labelValues().get(label)) {
					String[] combination = Arrays.copyOf(prefix, prefix.length + 2);
					combination[prefix.length] = label;
					combination[prefix.length + 1] = value;
					next.add(combination);
				}
			}
			combinations = next;
		}
		for (String[] labelKeyValues : combinations) {
			if (definition.type() == MetricType.COUNTER) {
				counter(definition.name(), labelKeyValues);
			}
			else {
				histogram(definition.name(), labelKeyValues);
			}
		}
	}

	/** A declared metric as registered. */
	private static final class Registered {

		final MetricDefinition definition;

		final boolean exposed;

		final String meterName;

		final String help;

		final Alias alias;

		final String exposedName;

		final ConcurrentMap<Tags, AtomicLong> settable = new ConcurrentHashMap<>();

		final SeriesCache<MetricCounter> counters;

		/**
		 * Whether the histogram counts negative values: its first boundary is below 0.
		 */
		final boolean negative;

		/**
		 * Whether the histogram is recorded without buckets ({@link HistogramBuckets}).
		 */
		boolean bucketless;

		/** How many labels, first among the metric's, name the object it is about. */
		final int identityLabels;

		/** The live series of an exposed per-object metric, else {@code null}. */
		@Nullable ObjectSeries objects;

		Registered(MetricDefinition definition, boolean exposed, String meterName, String help, Alias alias,
				String exposedName, SeriesCache<MetricCounter> counters) {
			this.definition = definition;
			this.counters = counters;
			this.exposed = exposed;
			this.meterName = meterName;
			this.help = help;
			this.alias = alias;
			this.exposedName = exposedName;
			this.negative = HistogramBuckets.countsNegativeValues(definition);
			this.identityLabels = (definition.perObject() != null) ? definition.perObject().labels().size() : 0;
		}

		/**
		 * Whether a histogram observes a value: finite, and 0 or more unless negative.
		 */
		boolean accepts(double value) {
			return this.negative ? Double.isFinite(value) : isCountable(value);
		}

		double[] buckets(double[] defaults) {
			return this.definition.buckets().isEmpty() ? defaults
					: this.definition.buckets().stream().mapToDouble(Double::doubleValue).toArray();
		}

	}

	/**
	 * One series of a histogram or summary: what records into it, and how to remove it.
	 */
	private record HistogramSeries(MetricHistogram observer, ObjectSeries.Meters meters) {
	}

	/** The deprecated old name a renamed metric is also recorded under. */
	private record Alias(String meterName, String exposedName, String help) {
	}

	/**
	 * A collector and the gauges it feeds. A series it reports again keeps its meter and
	 * gets the new value, so a scrape running beside the refresh (two Prometheus servers,
	 * or a scrape and an endpoint) never misses it; only series no longer reported are
	 * removed.
	 */
	private static final class CollectorRegistration {

		private final Registered metric;

		private final MetricCollector collector;

		private final MultiGauge primary;

		private final @Nullable MultiGauge alias;

		/** The current value of each series, as the bits of a double. */
		private final Map<Tags, AtomicLong> values = new HashMap<>();

		CollectorRegistration(Registered metric, MetricCollector collector, MultiGauge primary,
				@Nullable MultiGauge alias) {
			this.metric = metric;
			this.collector = collector;
			this.primary = primary;
			this.alias = alias;
		}

		synchronized void refresh(ControllerMetrics metrics) {
			Map<Tags, Double> collected = new LinkedHashMap<>();
			this.collector.collect((value, labelKeyValues) -> collected
				.merge(metrics.tags(this.metric, labelKeyValues, false), value, Double::sum));
			Map<Tags, Double> capped = metrics.capCollected(this.metric, collected);
			List<MultiGauge.Row<?>> rows = new ArrayList<>(capped.size());
			capped.forEach((tags, value) -> {
				AtomicLong bits = this.values.computeIfAbsent(tags, (key) -> new AtomicLong());
				bits.set(Double.doubleToLongBits(value));
				rows.add(MultiGauge.Row.of(tags, bits, (state) -> Double.longBitsToDouble(state.get())));
			});
			this.values.keySet().retainAll(capped.keySet());
			this.primary.register(rows, false);
			if (this.alias != null) {
				this.alias.register(rows, false);
			}
		}

	}

}
