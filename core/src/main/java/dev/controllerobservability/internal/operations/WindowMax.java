package dev.controllerobservability.internal.operations;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The largest duration recorded lately, as Micrometer's {@code _max} gauge shows it, at
 * the cost of a few reads per recording and no clock: every recording raises each of
 * three slots, and the slots are reset in turn when the gauge is read, one per 40 seconds
 * gone by. The value read is the largest duration of the last two minutes; when reads are
 * further apart than that, the largest since the previous read, which the reads of the
 * next 40 seconds still show.
 */
final class WindowMax {

	private static final int SLOTS = 3;

	/** How long a slot lives: the window, split over the slots. */
	private static final long ROTATION_NANOS = TimeUnit.SECONDS.toNanos(40);

	private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

	private int current;

	private long rotatedAt;

	WindowMax(long now) {
		this.rotatedAt = now;
	}

	/**
	 * Raises the maximum.
	 * @param nanos a duration in nanoseconds
	 */
	void record(long nanos) {
		for (int i = 0; i < SLOTS; i++) {
			long max = this.slots.get(i);
			while (nanos > max && !this.slots.weakCompareAndSetVolatile(i, max, nanos)) {
				max = this.slots.get(i);
			}
		}
	}

	/**
	 * The largest duration of the window, after the slots due have been reset.
	 * @param now the monotonic time in nanoseconds
	 * @return the maximum in seconds
	 */
	synchronized double poll(long now) {
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
		return this.slots.get(this.current) / 1e9;
	}

}
