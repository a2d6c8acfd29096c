package dev.controllerobservability.reliability;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Attacks on cardinality through operations and a catalog counter: a million distinct
 * values of one label, every pair of values of two labels, thousands of operation names.
 * The series stay within the caps, and so does the scrape.
 */
class CardinalityAttackReliabilityTests {

	private static final int ATTACK = 1_000_000;

	private static final int CAP = 100;

	@Test
	void boundsTheSeriesOfOneLabelToTheCapPlusUnexpected() {
		ReliabilityFixture fixture = new ReliabilityFixture(CAP, 64);
		int scrapeBefore = warmUp(fixture);
		for (int i = 0; i < ATTACK; i++) {
			String provisioner = "attacker-" + i;
			fixture.operations.observe("bind", Tags.of("provisioner", provisioner), () -> {
			});
			fixture.metrics.counter("nodes_launched_total", "provisioner", provisioner).increment();
		}
		String text = fixture.registry.scrape();
		PrometheusScrape scrape = PrometheusScrape.parse(text);
		assertThat(scrape.samples("karpenter_bind_duration_seconds_count")).hasSize(CAP + 1);
		assertThat(scrape.samples("karpenter_bind_in_flight")).hasSize(CAP + 1);
		assertThat(scrape.samples("karpenter_nodes_launched_total")).hasSize(CAP + 1);
		assertThat(scrape.value("karpenter_nodes_launched_total", Map.of("provisioner", "unexpected")))
			.isEqualTo(ATTACK - 1);
		assertThat(scrape.value("karpenter_cardinality_enforcement_unexpected_categorizations_total", Map.of()))
			.isEqualTo(2.0 * (ATTACK - 1));
		// The attack adds one value and "unexpected" to the 99 warm-up series, nothing
		// more.
		assertThat(text.length()).as("scrape size in characters").isLessThan((int) (scrapeBefore * 1.1));
	}

	@Test
	void boundsTheSeriesOfTwoLabelsPerMetricWithTheDefaultCaps() {
		ReliabilityFixture fixture = new ReliabilityFixture(CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES,
				CardinalityLimiter.DEFAULT_MAX_LABEL_VALUE_LENGTH, CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC,
				List.of("provisioner", "zone"));
		// 201 values per label: 40,401 label sets without a per-metric cap.
		int values = CardinalityLimiter.DEFAULT_MAX_LABEL_VALUES + 1;
		for (int p = 0; p < values; p++) {
			for (int z = 0; z < values; z++) {
				Tags tags = Tags.of("provisioner", "p" + p, "zone", "z" + z);
				fixture.operations.observe("bind", tags, () -> {
				});
				fixture.metrics.counter("nodes_launched_total", "provisioner", "p" + p, "zone", "z" + z).increment();
			}
		}
		String text = fixture.registry.scrape();
		// Measured: 4.9 million characters, where 40,401 label sets gave 201 MB.
		assertThat(text.length()).as("scrape size in characters").isLessThan(6_000_000);
		PrometheusScrape scrape = PrometheusScrape.parse(text);
		int bound = CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC + 1;
		assertThat(scrape.samples("karpenter_bind_duration_seconds_count")).hasSize(bound);
		assertThat(scrape.samples("karpenter_bind_in_flight")).hasSize(bound);
		assertThat(scrape.samples("karpenter_nodes_launched_total")).hasSize(bound);
		Map<String, String> overflow = Map.of("provisioner", "overflow", "zone", "overflow");
		double overflowed = values * values - CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC;
		assertThat(scrape.value("karpenter_nodes_launched_total", overflow)).isEqualTo(overflowed);
		// The series cap of the duration histogram counts label sets with result and
		// error: its overflow series has every label "overflow".
		assertThat(scrape.value("karpenter_bind_duration_seconds_count",
				Map.of("provisioner", "overflow", "zone", "overflow", "result", "overflow", "error", "overflow")))
			.isEqualTo(overflowed);
		// Every call beyond the cap, of either metric, resolved its labels anew and was
		// counted.
		assertThat(scrape.value("karpenter_cardinality_enforcement_series_overflows_total", Map.of()))
			.isEqualTo(2 * overflowed);
	}

	@Test
	void boundsTheNumberOfOperations() {
		ReliabilityFixture fixture = new ReliabilityFixture(CAP, 64);
		int names = 5_000;
		for (int i = 0; i < names; i++) {
			fixture.operations.observe("operation-" + i, Tags.of("provisioner", "gpu"), () -> {
			});
		}
		PrometheusScrape scrape = PrometheusScrape.parse(fixture.registry.scrape());
		Set<String> families = scrape.families()
			.stream()
			.filter((name) -> name.startsWith("karpenter_operation_") && name.endsWith("_duration_seconds"))
			.collect(Collectors.toSet());
		assertThat(families).hasSize(ControllerOperations.DEFAULT_MAX_OPERATIONS);
		assertThat(fixture.failures.count()).isEqualTo(names - ControllerOperations.DEFAULT_MAX_OPERATIONS);
	}

	private static int warmUp(ReliabilityFixture fixture) {
		// The first 99 values and the attack's first take the cap; the other 999,999
		// become unexpected.
		for (int i = 0; i < CAP - 1; i++) {
			fixture.operations.observe("bind", Tags.of("provisioner", "p" + i), () -> {
			});
			fixture.metrics.counter("nodes_launched_total", "provisioner", "p" + i).increment();
		}
		return fixture.registry.scrape().length();
	}

}
