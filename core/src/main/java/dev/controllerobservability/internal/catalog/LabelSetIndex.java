package dev.controllerobservability.internal.catalog;

import org.jspecify.annotations.Nullable;

/**
 * The series of every one-label metric by metric name, label key and label value as
 * callers pass them, in one open-addressed table read without a lock: a lookup hashes the
 * two strings' cached hashes, reads one slot in the common case and compares by identity
 * when callers pass the same strings each time, so that a series is found before the
 * metric itself is looked up. Entries are only added, under a lock, and never removed;
 * {@link SeriesCache} bounds how many each metric adds.
 *
 * @param <T> the series type
 */
public final class LabelSetIndex<T> {

	private static final int MAX_PROBES = 8;

	/**
	 * Replaced by a larger copy as it fills. A reader that races an addition sees the
	 * entry or an empty slot: a miss, which the caller resolves the slow way.
	 */
	private volatile @Nullable Entry<T>[] entries = newTable(64);

	private int size;

	/**
	 * The series for a metric name, label key and value.
	 * @param name the metric name
	 * @param key the label key
	 * @param value the label value
	 * @return the series, or {@code null}
	 */
	public @Nullable T get(String name, String key, String value) {
		@Nullable Entry<T>[] entries = this.entries;
		int mask = entries.length - 1;
		int hash = hash(name, value);
		for (int i = 0; i < MAX_PROBES; i++) {
			Entry<T> entry = entries[(hash + i) & mask];
			if (entry == null) {
				return null;
			}
			if (entry.matches(hash, name, key, value)) {
				return entry.series;
			}
		}
		return null;
	}

	/**
	 * Adds a series, unless one is held for the same strings.
	 * @param name the metric name
	 * @param key the label key
	 * @param value the label value
	 * @param series the series
	 * @return whether it was added
	 */
	public synchronized boolean put(String name, String key, String value, T series) {
		if (get(name, key, value) != null) {
			return false;
		}
		Entry<T> entry = new Entry<>(hash(name, value), name, key, value, series);
		@Nullable Entry<T>[] entries = this.entries;
		if (2 * (this.size + 1) > entries.length || !insert(entries, entry)) {
			entries = grown(entries, entry);
			this.entries = entries;
		}
		this.size++;
		return true;
	}

	/** How many series the index holds. */
	synchronized int size() {
		return this.size;
	}

	/** A larger table with every entry and the new one, each within its probe range. */
	private static <T> @Nullable Entry<T>[] grown(@Nullable Entry<T>[] entries, Entry<T> added) {
		int length = entries.length;
		while (true) {
			length *= 2;
			@Nullable Entry<T>[] grown = newTable(length);
			boolean placed = insert(grown, added);
			for (int i = 0; placed && i < entries.length; i++) {
				placed = entries[i] == null || insert(grown, entries[i]);
			}
			if (placed) {
				return grown;
			}
		}
	}

	private static <T> boolean insert(@Nullable Entry<T>[] entries, Entry<T> entry) {
		int mask = entries.length - 1;
		for (int i = 0; i < MAX_PROBES; i++) {
			int slot = (entry.hash + i) & mask;
			if (entries[slot] == null) {
				entries[slot] = entry;
				return true;
			}
		}
		return false;
	}

	@SuppressWarnings("unchecked")
	private static <T> @Nullable Entry<T>[] newTable(int length) {
		return new Entry[length];
	}

	private static int hash(String name, String value) {
		int hash = 31 * name.hashCode() + value.hashCode();
		return hash ^ (hash >>> 16);
	}

	private record Entry<T>(int hash, String name, String key, String value, T series) {

		boolean matches(int hash, String name, String key, String value) {
			if (this.value == value && this.name == name && this.key == key) {
				return true;
			}
			return this.hash == hash && this.value.equals(value) && this.name.equals(name) && this.key.equals(key);
		}

	}

}
