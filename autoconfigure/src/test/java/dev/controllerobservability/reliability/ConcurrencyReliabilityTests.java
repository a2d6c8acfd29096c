package dev.controllerobservability.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 8 threads record 200,000 operations each over 50 provisioners while another thread
 * scrapes back to back: nothing is lost, every scrape parses, and no count goes
 * backwards.
 */
class ConcurrencyReliabilityTests {

	private static final int THREADS = 8;

	private static final int PER_THREAD = 200_000;

	private static final int PROVISIONERS = 50;

	@Test
	void losesNothingWhileScrapedConcurrently() throws Exception {
		ReliabilityFixture fixture = new ReliabilityFixture(200, 128);
		Tags[] tags = new Tags[PROVISIONERS];
		for (int i = 0; i < PROVISIONERS; i++) {
			tags[i] = Tags.of("provisioner", "p" + i);
		}
		ExecutorService workers = Executors.newFixedThreadPool(THREADS + 1);
		CountDownLatch start = new CountDownLatch(1);
		AtomicBoolean recording = new AtomicBoolean(true);
		AtomicInteger scrapes = new AtomicInteger();
		List<String> problems = new ArrayList<>();
		Future<?> scraper = workers.submit(() -> {
			Map<String, Double> previous = new HashMap<>();
			// Back to back while recording goes on, and at least six times in all.
			while (recording.get() || scrapes.get() <= 5) {
				try {
					PrometheusScrape scrape = PrometheusScrape.parse(fixture.registry.scrape());
					for (PrometheusScrape.Sample sample : scrape.samples("karpenter_bind_duration_seconds_count")) {
						String series = sample.labels().toString();
						Double before = previous.put(series, sample.value());
						if (before != null && sample.value() < before) {
							problems.add(series + " went from " + before + " to " + sample.value());
						}
					}
					scrapes.incrementAndGet();
				}
				catch (RuntimeException ex) {
					problems.add("scrape failed: " + ex);
				}
			}
		});
		List<Future<?>> recorders = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			int thread = t;
			recorders.add(workers.submit(() -> {
				start.await();
				for (int i = 0; i < PER_THREAD; i++) {
					int value = i;
					int result = fixture.operations.observe("bind", tags[(thread + i) % PROVISIONERS], () -> value);
					if (result != value) {
						throw new IllegalStateException("result changed");
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> recorder : recorders) {
			recorder.get(5, TimeUnit.MINUTES);
		}
		recording.set(false);
		scraper.get(1, TimeUnit.MINUTES);
		workers.shutdown();
		assertThat(problems).isEmpty();
		assertThat(scrapes.get()).isGreaterThan(5);
		PrometheusScrape last = PrometheusScrape.parse(fixture.registry.scrape());
		List<PrometheusScrape.Sample> counts = last.samples("karpenter_bind_duration_seconds_count");
		assertThat(counts).hasSize(PROVISIONERS);
		int expectedPerProvisioner = THREADS * PER_THREAD / PROVISIONERS;
		assertThat(counts).allSatisfy((sample) -> assertThat(sample.value()).isEqualTo(expectedPerProvisioner));
		assertThat(last.samples("karpenter_bind_in_flight"))
			.allSatisfy((sample) -> assertThat(sample.value()).isZero());
		assertThat(fixture.failures.count()).isZero();
	}

}
