package dev.controllerobservability.internal.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;

/**
 * The live series of one per-object metric. A series is created, and removed (its object
 * forgotten, or idle for the metric's time to live), under one lock, so that a removal
 * and the creation of the same label set never interleave: a record after a removal finds
 * no series and creates a fresh one, which holds only what was recorded after the
 * removal. A series is marked removed before its meters leave the registry; a handle that
 * sees the mark resolves its labels again.
 */
public final class ObjectSeries {

	private final LiveObjects objects;

	/** The metric's label keys, those that name the object first. */
	private final List<String> labels;

	/** How many of the metric's labels, first among them, name the object. */
	private final int identityLabels;

	/** Whether the first identity label is the object's kind. */
	private final boolean kind;

	/** Nanoseconds a series lives without being written, or 0 for no limit. */
	private final long timeToLiveNanos;

	/** Releases a label set's place under the series cap. */
	private final Function<List<String>, Boolean> release;

	private final ConcurrentMap<Tags, Series> live = new ConcurrentHashMap<>();

	/** The live series by the label keys and values a caller passed. */
	private final ConcurrentMap<KeyValues, Series> byCallerKeys = new ConcurrentHashMap<>();

	/**
	 * The live series by the object a caller passed: the series itself for a metric
	 * without other labels, else a map of them by the value of the one other label.
	 * Looked up without allocating a key.
	 */
	private final ConcurrentMap<ObjectRef, Object> byObject = new ConcurrentHashMap<>();

	/**
	 * Creates the table of one metric.
	 * @param objects the index of every per-object series, which also tells epochs
	 * @param labels the metric's label keys, those that name the object first
	 * @param identityLabels how many labels, first among the metric's, name the object
	 * @param kind whether the first of them is the kind
	 * @param timeToLiveNanos how long a series lives unwritten, 0 for ever
	 * @param release frees a label set's place under the series cap
	 */
	public ObjectSeries(LiveObjects objects, List<String> labels, int identityLabels, boolean kind,
			long timeToLiveNanos, Function<List<String>, Boolean> release) {
		this.objects = objects;
		this.labels = List.copyOf(labels);
		this.identityLabels = identityLabels;
		this.kind = kind;
		this.timeToLiveNanos = timeToLiveNanos;
		this.release = release;
		if (timeToLiveNanos > 0) {
			objects.expire(this, timeToLiveNanos);
		}
	}

	/**
	 * The live series a caller's label keys and values led to before.
	 * @param labelKeyValues keys, each followed by its value, as the caller passes them
	 * @return the series, or {@code null} if there is none or it was removed
	 */
	public @Nullable Series cached(String[] labelKeyValues) {
		Series series = this.byCallerKeys.get(new KeyValues(labelKeyValues));
		return (series != null && !series.removed) ? series : null;
	}

	/**
	 * The live series a caller's object and other label led to before.
	 * @param object the object as the caller passed it
	 * @param key the other label's key, or {@code null} for a metric without
	 * @param value its value, or {@code null}
	 * @return the series, or {@code null} if there is none or it was removed
	 */
	public @Nullable Series cached(ObjectRef object, @Nullable String key, @Nullable String value) {
		Object found = this.byObject.get(object);
		Series series;
		if (found instanceof Series only) {
			series = (key == null) ? only : null;
		}
		else if (found != null && key != null && key.equals(this.labels.get(this.labels.size() - 1))) {
			series = ((ConcurrentMap<?, ?>) found).get(value) instanceof Series other ? other : null;
		}
		else {
			series = null;
		}
		return (series != null && !series.removed) ? series : null;
	}

	/**
	 * Finds a live series again by the object and other label a caller passed, unless the
	 * other label's value was replaced or the series is the overflow.
	 * @param object the object as the caller passed it
	 * @param key the other label's key, or {@code null}
	 * @param value its value, or {@code null}
	 * @param series the series they led to
	 */
	public synchronized void remember(ObjectRef object, @Nullable String key, @Nullable String value, Series series) {
		// The object's labels are only ever made "none" or truncated, the same way each
		// time; the other label must be the series' own, and the series not the overflow.
		if (series.removed || !series.isObject() || this.labels.size() - this.identityLabels != ((key != null) ? 1 : 0)
				|| (value != null && !value.equals(series.values.get(this.labels.size() - 1)))) {
			return;
		}
		ByObject entry = new ByObject(object, value);
		if (value == null) {
			this.byObject.put(object, series);
		}
		else {
			@SuppressWarnings("unchecked")
			ConcurrentMap<String, Series> byValue = (ConcurrentMap<String, Series>) this.byObject
				.computeIfAbsent(object, (ref) -> new ConcurrentHashMap<String, Series>());
			byValue.put(value, series);
		}
		series.byObject.add(entry);
	}

	/**
	 * The live series of a caller's labels, created if there is none.
	 * @param labelKeyValues keys, each followed by its value, as the caller passes them
	 * @param resolve resolves the labels to record, taking a place under the series cap
	 * @param register registers the series' meters
	 * @return the series
	 * @throws RegistrationException if the meters could not be registered
	 */
	public Series series(String[] labelKeyValues, Function<String[], Tags> resolve, Registrar register) {
		synchronized (this) {
			Series cached = cached(labelKeyValues);
			if (cached != null) {
				return cached;
			}
			Tags tags = resolve.apply(labelKeyValues);
			Series series = this.live.get(tags);
			if (series == null) {
				series = new Series(this, tags, this.objects.epoch());
				try {
					series.meters = register.register(tags, series);
				}
				catch (RuntimeException ex) {
					// The next record tries again, with the place it took given back.
					this.release.apply(series.values);
					throw new RegistrationException(ex);
				}
				this.live.put(tags, series);
				if (series.isObject()) {
					this.objects.add(series);
				}
			}
			if (resolvesToItself(labelKeyValues, series)) {
				KeyValues key = new KeyValues(labelKeyValues.clone());
				this.byCallerKeys.put(key, series);
				series.callerKeys.add(key);
			}
			return series;
		}
	}

	/**
	 * Removes a series: marks it, forgets how callers found it, takes its meters out of
	 * the registry and frees its place under the series cap.
	 * @param series the series
	 * @return whether it was live
	 */
	synchronized boolean remove(Series series) {
		if (series.removed || this.live.get(series.tags) != series) {
			return false;
		}
		series.removed = true;
		this.live.remove(series.tags);
		series.callerKeys.forEach((key) -> this.byCallerKeys.remove(key, series));
		for (ByObject entry : series.byObject) {
			if (entry.value() == null) {
				this.byObject.remove(entry.object(), series);
			}
			else if (this.byObject.get(entry.object()) instanceof ConcurrentMap<?, ?> byValue) {
				byValue.remove(entry.value(), series);
				if (byValue.isEmpty()) {
					this.byObject.remove(entry.object(), byValue);
				}
			}
		}
		if (series.isObject()) {
			this.objects.remove(series);
		}
		try {
			series.meters.unregister();
		}
		finally {
			this.release.apply(series.values);
		}
		return true;
	}

	/**
	 * Removes the series not written for the time to live.
	 * @param epoch the current epoch
	 * @param now the current time, in the clock's nanoseconds
	 * @return how many were removed
	 */
	int expire(int epoch, long now) {
		int removed = 0;
		for (Series series : this.live.values()) {
			if (series.isObject() && this.objects.idle(series.stamp, epoch, now, this.timeToLiveNanos)
					&& remove(series)) {
				removed++;
			}
		}
		return removed;
	}

	/**
	 * How many series are live.
	 * @return the count
	 */
	public int size() {
		return this.live.size();
	}

	/** Whether the labels a caller passed are the series' own, none replaced. */
	private boolean resolvesToItself(String[] labelKeyValues, Series series) {
		if (labelKeyValues.length != 2 * this.labels.size()) {
			return false;
		}
		for (int i = 0; i < labelKeyValues.length; i += 2) {
			int index = this.labels.indexOf(labelKeyValues[i]);
			if (index < 0 || !series.values.get(index).equals(labelKeyValues[i + 1])) {
				return false;
			}
		}
		return true;
	}

	/** An object, and the value of the one other label, under which a series is held. */
	private record ByObject(ObjectRef object, @Nullable String value) {
	}

	/** The registry refused the meters of a new series. */
	public static final class RegistrationException extends RuntimeException {

		RegistrationException(RuntimeException cause) {
			super(cause.getMessage(), cause);
		}

	}

	/** Registers the meters of a new series. */
	@FunctionalInterface
	public interface Registrar {

		/**
		 * Registers the meters.
		 * @param tags the series' labels
		 * @param series the series, whose handle the registrar sets
		 * @return how to take the meters out of the registry again
		 */
		Meters register(Tags tags, Series series);

	}

	/** The meters of one series. */
	@FunctionalInterface
	public interface Meters {

		/** Takes the meters out of the registry. */
		void unregister();

	}

	/** One series of a per-object metric. */
	public static final class Series {

		private final ObjectSeries table;

		private final Tags tags;

		/**
		 * The label values, in the metric's label order, as the series cap counts them.
		 */
		private final List<String> values;

		private final List<KeyValues> callerKeys = new ArrayList<>(1);

		/** Where {@link #byObject} holds the series. */
		private final List<ByObject> byObject = new ArrayList<>(1);

		private Meters meters = () -> {
		};

		/** What callers record through, set by the registrar. */
		private @Nullable Object handle;

		private volatile boolean removed;

		/** The epoch of the last write. */
		private volatile int stamp;

		Series(ObjectSeries table, Tags tags, int epoch) {
			this.table = table;
			this.tags = tags;
			String[] values = new String[table.labels.size()];
			for (Tag tag : tags) {
				int index = table.labels.indexOf(tag.getKey());
				if (index >= 0) {
					values[index] = tag.getValue();
				}
			}
			this.values = List.of(values);
			this.stamp = epoch;
		}

		/**
		 * Whether the series was removed: a handle then resolves its labels again.
		 * @return whether it was removed
		 */
		public boolean removed() {
			return this.removed;
		}

		/** Marks the series written now, for its time to live. Allocates nothing. */
		public void touch() {
			if (this.table.timeToLiveNanos == 0) {
				return;
			}
			int epoch = this.table.objects.epoch();
			if (this.stamp != epoch) {
				this.stamp = epoch;
			}
		}

		/**
		 * The handle callers record through.
		 * @return the handle
		 */
		public @Nullable Object handle() {
			return this.handle;
		}

		/**
		 * Sets the handle callers record through.
		 * @param handle the handle
		 */
		public void handle(Object handle) {
			this.handle = handle;
		}

		/**
		 * The series' labels.
		 * @return the labels
		 */
		public Tags tags() {
			return this.tags;
		}

		ObjectSeries table() {
			return this.table;
		}

		/** Whether the series is an object's, and not the metric's overflow series. */
		boolean isObject() {
			return !(name().equals(CardinalityLimiter.OVERFLOW) && namespace().equals(CardinalityLimiter.OVERFLOW));
		}

		@Nullable String kind() {
			return this.table.kind ? this.values.get(0) : null;
		}

		String namespace() {
			return this.values.get(this.table.identityLabels - 2);
		}

		String name() {
			return this.values.get(this.table.identityLabels - 1);
		}

	}

}
