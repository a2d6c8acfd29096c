package dev.controllerobservability.internal.operations;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code _max} of the prometheus backend: the largest duration of the last two
 * minutes while it is read every 40 seconds or more often, and of the time since the
 * previous read when reads are further apart, shown for 40 more seconds.
 */
class WindowMaxTests {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	@Test
	void showsTheLargestDurationRecorded() {
		PrometheusDurations.WindowMax max = new PrometheusDurations.WindowMax(0);
		max.record(2 * SECOND);
		max.record(5 * SECOND);
		max.record(1 * SECOND);
		assertThat(max.poll(10 * SECOND)).isEqualTo(5.0);
	}

	@Test
	void forgetsADurationOnceTheWindowHasPassed() {
		PrometheusDurations.WindowMax max = new PrometheusDurations.WindowMax(0);
		max.record(5 * SECOND);
		assertThat(max.poll(40 * SECOND)).isEqualTo(5.0);
		assertThat(max.poll(80 * SECOND)).isEqualTo(5.0);
		max.record(1 * SECOND);
		assertThat(max.poll(120 * SECOND)).isEqualTo(1.0);
		// Recorded before the read at 120 s: gone two minutes later.
		assertThat(max.poll(240 * SECOND)).isZero();
	}

	@Test
	void keepsWhatWasRecordedSinceThePreviousReadWhenReadsAreFarApart() {
		PrometheusDurations.WindowMax max = new PrometheusDurations.WindowMax(0);
		assertThat(max.poll(0)).isZero();
		max.record(3 * SECOND);
		assertThat(max.poll(600 * SECOND)).isEqualTo(3.0);
		// Then read every second, it stays for one slot, 40 seconds, and no longer.
		assertThat(max.poll(639 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(640 * SECOND)).isZero();
	}

	@Test
	void showsItForFortySecondsAfterAReadBetweenTwoRotations() {
		PrometheusDurations.WindowMax max = new PrometheusDurations.WindowMax(0);
		max.record(3 * SECOND);
		// 615 s is 15 s past a rotation: the next read due to rotate comes at 655 s.
		assertThat(max.poll(615 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(645 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(654 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(655 * SECOND)).isZero();
	}

	@Test
	void showsItForFortySecondsAfterAReadThatMissedTwoRotations() {
		PrometheusDurations.WindowMax max = new PrometheusDurations.WindowMax(0);
		assertThat(max.poll(39 * SECOND)).isZero();
		max.record(3 * SECOND);
		// 119 s is two rotations after the previous read's slot began.
		assertThat(max.poll(119 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(158 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(159 * SECOND)).isZero();
	}

}
