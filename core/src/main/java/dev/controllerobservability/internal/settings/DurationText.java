package dev.controllerobservability.internal.settings;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A duration as configuration writes it ({@code 10m}, {@code 30s}, {@code 500ms}), for
 * messages that show a refused value as the user gave it rather than as {@code PT10M}.
 */
public final class DurationText {

	private static final long HOUR = 3_600_000;

	private static final long MINUTE = 60_000;

	private static final long SECOND = 1_000;

	private DurationText() {
	}

	/**
	 * The text of a duration.
	 * @param duration the duration
	 * @return the text, such as {@code 10m}; ISO-8601 for a duration of nanoseconds
	 */
	public static String of(@Nullable Duration duration) {
		if (duration == null) {
			return "null";
		}
		if (duration.toNanos() % 1_000_000 != 0) {
			return duration.toString();
		}
		long millis = duration.toMillis();
		for (long unit : new long[] { HOUR, MINUTE, SECOND }) {
			if (millis != 0 && millis % unit == 0) {
				return (millis / unit) + ((unit == HOUR) ? "h" : (unit == MINUTE) ? "m" : "s");
			}
		}
		return millis + "ms";
	}

}
