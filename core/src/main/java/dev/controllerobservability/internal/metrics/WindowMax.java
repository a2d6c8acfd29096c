package dev.controllerobservability.internal.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The largest value recorded lately, as Micrometer's {@code _max} gauge shows it, at the
 * cost of a few reads per recording and no clock: every recording raises each of three
 * slots, and the slots are reset in turn when the gauge is read, one per 40 seconds gone
 * by. The value read is the largest value of the last two minutes, or 0 when none was
 * recorded; when reads are further apart than that, the largest since the previous read,
 * which the reads of the next 40 seconds still show. Values are 0 or more (durations, the
 * values of a histogram without negative buckets): their bits, read as a {@code long},
 * order as the values do, so a slot is raised by comparing bits.
 */
public final class WindowMax {

	private static final int SLOTS = 3;

	/** How long a slot lives: the window, split over the slots. */
	private static final long ROTATION_NANOS = TimeUnit.SECONDS.toNanos(40);

	private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

	private int current;

	private long rotatedAt;

	/**
	 * Starts the window.
	 * @param now the monotonic time in nanoseconds
	 */
	public WindowMax(long now) {
		this.rotatedAt = now;
	}

	/**
	 * Raises the maximum.
	 * @param value a value of 0 or more, not NaN
	 */
	public void record(double value) {
		long bits = Double.doubleToRawLongBits(value);
		for (int i = 0; i < SLOTS; i++) {
			long max = this.slots.get(i);
			while (bits > max && !this.slots.weakCompareAndSetVolatile(i, max, bits)) {
				max = this.slots.get(i);
			}
		}
	}

	/**
	 * The largest value of the window, after the slots due have been reset.
	 * @param now the monotonic time in nanoseconds
	 * @return the maximum
	 */
	public synchronized double poll(long now) {
		long due = (now - this.rotatedAt) / ROTATION_NANOS;
		// The current slot has seen every recording since the previous read: it is kept
		// however long ago that was, rather than reset unread.
		for (long i = 0; i < Math.min(due, SLOTS - 1); i++) {
			this.slots.set(this.current, 0);
			this.current = (this.current + 1) % SLOTS;
		}
		if (due >= SLOTS - 1) {
			// Reads were far apart and the slots above were reset only now, so they hold
			// nothing recorded before this read: the current slot starts its 40 seconds
			// now, or what this read shows could vanish at the next one.
			this.rotatedAt = now;
		}
		else if (due > 0) {
			this.rotatedAt += due * ROTATION_NANOS;
		}
		return Double.longBitsToDouble(this.slots.get(this.current));
	}

}
