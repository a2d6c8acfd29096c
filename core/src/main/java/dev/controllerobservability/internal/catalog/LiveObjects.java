package dev.controllerobservability.internal.catalog;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The series of every per-object metric by the object they are about, and the clock of
 * their time to live.
 * <p>
 * A write marks its series with the current epoch, a number read from one field, so that
 * recording never reads the clock. {@link #expireIdleSeries()} starts the next epoch and
 * notes the time it started; a series marked with epoch {@code e} was last written before
 * epoch {@code e + 1} started, so it has been idle for at least the time since then, and
 * is removed only once that reaches its time to live: never early, whatever the delays
 * between epochs. A daemon thread shared by the JVM starts the epochs while a metric with
 * a time to live exists; it holds this index weakly, and {@link #close()} stops it.
 */
public final class LiveObjects implements AutoCloseable {

	/** Shortest time between two epochs. */
	private static final long MIN_EPOCH_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/** Epochs per shortest time to live: how late a series may be removed, at most. */
	private static final int EPOCHS_PER_TIME_TO_LIVE = 10;

	/** Most epochs whose start is remembered. */
	private static final int MAX_EPOCHS = 4096;

	private static final ScheduledExecutorService EXPIRY = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "controller-observability-series-expiry");
		thread.setDaemon(true);
		return thread;
	});

	private static final Logger logger = LoggerFactory.getLogger(LiveObjects.class);

	private final Clock clock;

	private final ConcurrentMap<ObjectKey, Set<ObjectSeries.Series>> byObject = new ConcurrentHashMap<>();

	private final List<ObjectSeries> expiring = new CopyOnWriteArrayList<>();

	private volatile int epoch;

	/** When each remembered epoch started, by epoch modulo its length. */
	private long[] starts = new long[1];

	/** Shortest time between the starts of two epochs. */
	private long interval = MIN_EPOCH_NANOS;

	private long shortestTimeToLive = Long.MAX_VALUE;

	private long longestTimeToLive;

	private @Nullable ScheduledFuture<?> ticking;

	/**
	 * Creates an empty index.
	 * @param clock the clock of times to live, the registry's
	 */
	public LiveObjects(Clock clock) {
		this.clock = clock;
		this.starts[0] = clock.monotonicTime();
	}

	/**
	 * The current epoch.
	 * @return the epoch
	 */
	int epoch() {
		return this.epoch;
	}

	void add(ObjectSeries.Series series) {
		this.byObject.compute(new ObjectKey(series.namespace(), series.name()), (key, all) -> {
			Set<ObjectSeries.Series> set = (all != null) ? all : ConcurrentHashMap.newKeySet();
			set.add(series);
			return set;
		});
	}

	void remove(ObjectSeries.Series series) {
		this.byObject.computeIfPresent(new ObjectKey(series.namespace(), series.name()), (key, all) -> {
			all.remove(series);
			return all.isEmpty() ? null : all;
		});
	}

	/**
	 * Removes every series of an object.
	 * @param kind the object's kind, or {@code null} for any; a series without a kind
	 * label matches any kind
	 * @param namespace the namespace, as its label holds it
	 * @param name the name, as its label holds it
	 * @param only the one metric whose series to remove, or {@code null} for all
	 * @return how many series were removed
	 */
	public int forget(@Nullable String kind, String namespace, String name, @Nullable ObjectSeries only) {
		Set<ObjectSeries.Series> all = this.byObject.get(new ObjectKey(namespace, name));
		if (all == null) {
			return 0;
		}
		int removed = 0;
		for (ObjectSeries.Series series : List.copyOf(all)) {
			String own = series.kind();
			if ((kind == null || own == null || own.equals(kind)) && (only == null || series.table() == only)
					&& series.table().remove(series)) {
				removed++;
			}
		}
		return removed;
	}

	/**
	 * How many objects have a live series.
	 * @return the count
	 */
	public int objects() {
		return this.byObject.size();
	}

	/**
	 * Starts the next epoch, unless the current one started less than an epoch's length
	 * ago, and removes the series of every metric that have not been written for its time
	 * to live.
	 * @return how many series were removed
	 */
	public int expireIdleSeries() {
		int current;
		long now;
		synchronized (this) {
			now = this.clock.monotonicTime();
			current = this.epoch;
			// Epochs started more often would fill the remembered starts with recent
			// times, and no series would ever look idle.
			if (now - this.starts[Math.floorMod(current, this.starts.length)] >= this.interval) {
				current++;
				this.starts[Math.floorMod(current, this.starts.length)] = now;
				this.epoch = current;
			}
		}
		int removed = 0;
		for (ObjectSeries table : this.expiring) {
			removed += table.expire(current, now);
		}
		return removed;
	}

	/**
	 * Whether a series last written in an epoch has been idle for a time.
	 * @param stamp the epoch of its last write
	 * @param current the current epoch
	 * @param now the current time
	 * @param timeToLiveNanos the time
	 * @return whether it has
	 */
	synchronized boolean idle(int stamp, int current, long now, long timeToLiveNanos) {
		// The write came before the next epoch started; the oldest remembered start
		// stands for older ones, which only makes a removal later.
		int after = stamp + 1;
		if (after - current > 0) {
			return false;
		}
		int oldest = current - this.starts.length + 1;
		int from = (after - oldest < 0) ? oldest : after;
		return now - this.starts[Math.floorMod(from, this.starts.length)] >= timeToLiveNanos;
	}

	/** Expires a metric's series, and starts the epochs if they are not running. */
	synchronized void expire(ObjectSeries table, long timeToLiveNanos) {
		this.expiring.add(table);
		this.shortestTimeToLive = Math.min(this.shortestTimeToLive, timeToLiveNanos);
		this.longestTimeToLive = Math.max(this.longestTimeToLive, timeToLiveNanos);
		long interval = Math.max(MIN_EPOCH_NANOS,
				Math.max(this.shortestTimeToLive / EPOCHS_PER_TIME_TO_LIVE, this.longestTimeToLive / (MAX_EPOCHS - 2)));
		this.interval = interval;
		int length = (int) Math.min(MAX_EPOCHS, this.longestTimeToLive / interval + 2);
		if (length > this.starts.length) {
			long[] starts = new long[length];
			for (int i = 0; i < this.starts.length; i++) {
				int epoch = this.epoch - i;
				starts[Math.floorMod(epoch, length)] = this.starts[Math.floorMod(epoch, this.starts.length)];
			}
			// Epochs never started count as started with the oldest one known.
			long oldest = this.starts[Math.floorMod(this.epoch - this.starts.length + 1, this.starts.length)];
			for (int i = this.starts.length; i < length; i++) {
				starts[Math.floorMod(this.epoch - i, length)] = oldest;
			}
			this.starts = starts;
		}
		if (this.ticking != null) {
			this.ticking.cancel(false);
		}
		WeakReference<LiveObjects> index = new WeakReference<>(this);
		ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
		self[0] = EXPIRY.scheduleWithFixedDelay(() -> {
			LiveObjects objects = index.get();
			if (objects == null) {
				if (self[0] != null) {
					self[0].cancel(false);
				}
				return;
			}
			try {
				objects.expireIdleSeries();
			}
			catch (RuntimeException ex) {
				// A failing registry must not stop the epochs: the next run tries again.
				logger.warn("Removing idle per-object series failed; trying again in the next epoch", ex);
			}
		}, interval, interval, TimeUnit.NANOSECONDS);
		this.ticking = self[0];
	}

	/** Stops starting epochs: idle series are no longer removed. */
	@Override
	public synchronized void close() {
		if (this.ticking != null) {
			this.ticking.cancel(false);
			this.ticking = null;
		}
	}

	/** An object by the labels that hold its namespace and name. */
	private record ObjectKey(String namespace, String name) {
	}

}
