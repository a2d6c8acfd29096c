package dev.controllerobservability.reliability;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.testing.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One million distinct provisioner values through operations and a catalog counter: the
 * series stay at the cap plus {@code unexpected}, retained heap and scrape size stay
 * bounded.
 */
class CardinalityAttackReliabilityTests {

	private static final int ATTACK = 1_000_000;

	private static final int CAP = 100;

	@Test
	void boundsSeriesHeapAndScrapeSize() {
		ReliabilityFixture fixture = new ReliabilityFixture(CAP, 64);
		int scrapeBefore = warmUp(fixture);
		long heapBefore = usedHeapAfterGc();
		for (int i = 0; i < ATTACK; i++) {
			String provisioner = "attacker-" + i;
			fixture.operations.observe("bind", Tags.of("provisioner", provisioner), () -> {
			});
			fixture.metrics.counter("nodes_launched_total", "provisioner", provisioner).increment();
		}
		long heapGrowth = usedHeapAfterGc() - heapBefore;
		String text = fixture.registry.scrape();
		PrometheusScrape scrape = PrometheusScrape.parse(text);
		assertThat(scrape.samples("karpenter_bind_duration_seconds_count")).hasSize(CAP + 1);
		assertThat(scrape.samples("karpenter_bind_in_flight")).hasSize(CAP + 1);
		assertThat(scrape.samples("karpenter_nodes_launched_total")).hasSize(CAP + 1);
		assertThat(scrape.value("karpenter_nodes_launched_total", java.util.Map.of("provisioner", "unexpected")))
			.isEqualTo(ATTACK - 1);
		assertThat(scrape.value("karpenter_cardinality_enforcement_unexpected_categorizations_total",
				java.util.Map.of())).isEqualTo(2.0 * (ATTACK - 1));
		// Measured: a few hundred KiB for 101 series per metric; a leak of the attack's values
		// would retain well over 50 MiB (a million strings).
		assertThat(heapGrowth).as("retained heap growth in bytes").isLessThan(8L * 1024 * 1024);
		// The attack adds one value and "unexpected" to the 99 warm-up series, nothing more.
		assertThat(text.length()).as("scrape size in characters").isLessThan((int) (scrapeBefore * 1.1));
		System.out.printf("cardinality attack: heap growth %d KiB, scrape %d KiB before, %d KiB after%n",
				heapGrowth / 1024, scrapeBefore / 1024, text.length() / 1024);
	}

	private static int warmUp(ReliabilityFixture fixture) {
		// The first 99 values and the attack's first take the cap; the other 999,999 become unexpected.
		for (int i = 0; i < CAP - 1; i++) {
			fixture.operations.observe("bind", Tags.of("provisioner", "p" + i), () -> {
			});
			fixture.metrics.counter("nodes_launched_total", "provisioner", "p" + i).increment();
		}
		return fixture.registry.scrape().length();
	}

	private static long usedHeapAfterGc() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < 3; i++) {
			System.gc();
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
