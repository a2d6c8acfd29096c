package dev.controllerobservability.internal.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LabelSetIndexTests {

	@Test
	void findsEverySeriesAddedAsTheTableGrowsAndHashesCollide() {
		LabelSetIndex<Integer> index = new LabelSetIndex<>();
		List<String> values = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			values.add("provisioner-" + i);
		}
		// "Aa" and "BB" share a hash code, and so does every concatenation of them.
		for (String first : List.of("Aa", "BB")) {
			for (String second : List.of("Aa", "BB")) {
				for (String third : List.of("Aa", "BB")) {
					values.add(first + second + third);
				}
			}
		}
		for (int i = 0; i < values.size(); i++) {
			assertThat(index.put("rounds_total", "result", values.get(i), i)).isTrue();
		}
		assertThat(index.size()).isEqualTo(values.size());
		for (int i = 0; i < values.size(); i++) {
			// Equal strings that are not the ones added are found too.
			assertThat(index.get(new String("rounds_total"), new String("result"), new String(values.get(i))))
				.as(values.get(i))
				.isEqualTo(i);
		}
	}

	@Test
	void tellsMetricsAndLabelKeysApart() {
		LabelSetIndex<String> index = new LabelSetIndex<>();
		index.put("rounds_total", "result", "success", "rounds");
		assertThat(index.put("rounds_total", "result", "success", "again")).isFalse();
		assertThat(index.get("rounds_total", "result", "success")).isEqualTo("rounds");
		assertThat(index.get("launches_total", "result", "success")).isNull();
		assertThat(index.get("rounds_total", "outcome", "success")).isNull();
		assertThat(index.get("rounds_total", "result", "error")).isNull();
	}

	@Test
	void readersRacingAdditionsFindOnlyTheRightSeries() throws InterruptedException {
		LabelSetIndex<String> index = new LabelSetIndex<>();
		int count = 5_000;
		CountDownLatch start = new CountDownLatch(1);
		AtomicInteger wrong = new AtomicInteger();
		AtomicInteger found = new AtomicInteger();
		List<Thread> readers = new ArrayList<>();
		for (int t = 0; t < 2; t++) {
			Thread reader = new Thread(() -> {
				await(start);
				while (found.get() < count) {
					for (int i = 0; i < count; i++) {
						String series = index.get("rounds_total", "result", "value-" + i);
						if (series != null && !series.equals("series-" + i)) {
							wrong.incrementAndGet();
						}
					}
					found.set(countFound(index, count));
				}
			});
			reader.start();
			readers.add(reader);
		}
		start.countDown();
		for (int i = 0; i < count; i++) {
			index.put("rounds_total", "result", "value-" + i, "series-" + i);
		}
		for (Thread reader : readers) {
			reader.join();
		}
		assertThat(wrong).as("lookups that found another value's series").hasValue(0);
		assertThat(countFound(index, count)).isEqualTo(count);
	}

	@Test
	void seriesCachesOfOneLabelMetricsShareTheIndexWithinTheirOwnBounds() {
		LabelSetIndex<String> index = new LabelSetIndex<>();
		SeriesCache<String> rounds = new SeriesCache<>("rounds_total", List.of("result"), 2, index);
		SeriesCache<String> launches = new SeriesCache<>("launches_total", List.of("result"), 2, index);
		for (String value : List.of("success", "error", "timeout")) {
			rounds.remember(new String[] { "result", value }, Tags.of("result", value), "rounds " + value);
		}
		launches.remember(new String[] { "result", "success" }, Tags.of("result", "success"), "launches success");
		assertThat(rounds.get(new String[] { "result", "success" })).isEqualTo("rounds success");
		assertThat(rounds.get(new String[] { "result", "error" })).isEqualTo("rounds error");
		assertThat(rounds.get(new String[] { "result", "timeout" })).as("beyond the bound of 2").isNull();
		assertThat(index.get("launches_total", "result", "success")).isEqualTo("launches success");
		assertThat(index.size()).isEqualTo(3);
		// A value the limits replaced is not remembered: it is resolved on every call.
		launches.remember(new String[] { "result", "odd" }, Tags.of("result", "unexpected"), "launches unexpected");
		assertThat(launches.get(new String[] { "result", "odd" })).isNull();
	}

	private static int countFound(LabelSetIndex<String> index, int count) {
		int found = 0;
		for (int i = 0; i < count; i++) {
			if (index.get("rounds_total", "result", "value-" + i) != null) {
				found++;
			}
		}
		return found;
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
