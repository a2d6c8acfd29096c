package dev.controllerobservability.internal.metrics;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code _max} of the prometheus backend and of exact catalog histograms: the largest
 * value of the last two minutes while it is read every 40 seconds or more often, and of
 * the time since the previous read when reads are further apart, shown for 40 more
 * seconds.
 */
class WindowMaxTests {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	@Test
	void showsTheLargestDurationRecorded() {
		WindowMax max = new WindowMax(0);
		max.record(2.0);
		max.record(5.0);
		max.record(1.0);
		assertThat(max.poll(10 * SECOND)).isEqualTo(5.0);
	}

	@Test
	void ordersValuesOfZeroOrMoreAsNumbersDo() {
		WindowMax max = new WindowMax(0);
		max.record(0.25);
		max.record(Double.MIN_VALUE);
		max.record(0.0);
		max.record(0.2500000000000001);
		max.record(1e-300);
		assertThat(max.poll(SECOND)).isEqualTo(0.2500000000000001);
		max.record(1e300);
		assertThat(max.poll(2 * SECOND)).isEqualTo(1e300);
	}

	@Test
	void forgetsADurationOnceTheWindowHasPassed() {
		WindowMax max = new WindowMax(0);
		max.record(5.0);
		assertThat(max.poll(40 * SECOND)).isEqualTo(5.0);
		assertThat(max.poll(80 * SECOND)).isEqualTo(5.0);
		max.record(1.0);
		assertThat(max.poll(120 * SECOND)).isEqualTo(1.0);
		// Recorded before the read at 120 s: gone two minutes later.
		assertThat(max.poll(240 * SECOND)).isZero();
	}

	@Test
	void keepsWhatWasRecordedSinceThePreviousReadWhenReadsAreFarApart() {
		WindowMax max = new WindowMax(0);
		assertThat(max.poll(0)).isZero();
		max.record(3.0);
		assertThat(max.poll(600 * SECOND)).isEqualTo(3.0);
		// Then read every second, it stays for one slot, 40 seconds, and no longer.
		assertThat(max.poll(639 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(640 * SECOND)).isZero();
	}

	@Test
	void showsItForFortySecondsAfterAReadBetweenTwoRotations() {
		WindowMax max = new WindowMax(0);
		max.record(3.0);
		// 615 s is 15 s past a rotation: the next read due to rotate comes at 655 s.
		assertThat(max.poll(615 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(645 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(654 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(655 * SECOND)).isZero();
	}

	@Test
	void showsItForFortySecondsAfterAReadThatMissedTwoRotations() {
		WindowMax max = new WindowMax(0);
		assertThat(max.poll(39 * SECOND)).isZero();
		max.record(3.0);
		// 119 s is two rotations after the previous read's slot began.
		assertThat(max.poll(119 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(158 * SECOND)).isEqualTo(3.0);
		assertThat(max.poll(159 * SECOND)).isZero();
	}

}
