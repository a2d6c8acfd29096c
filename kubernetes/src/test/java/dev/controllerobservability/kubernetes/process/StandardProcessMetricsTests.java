package dev.controllerobservability.kubernetes.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The standard process families, without the one Micrometer writes, through every way a
 * scrape asks for them.
 */
class StandardProcessMetricsTests {

	private final StandardProcessMetrics metrics = new StandardProcessMetrics();

	@Test
	void collectsTheStandardFamiliesButTheStartTime() {
		assertThat(names(this.metrics.collect())).containsExactlyInAnyOrderElementsOf(StandardProcessMetrics.NAMES);
	}

	@Test
	void answersAFilteredScrapeWithTheIncludedFamiliesOnly() {
		assertThat(names(this.metrics.collect("process_open_fds"::equals))).containsExactly("process_open_fds");
		assertThat(names(this.metrics.collect(StandardProcessMetrics.START_TIME::equals))).isEmpty();
	}

	@Test
	void registersBesideAnotherStartTimeWithoutAClash() {
		PrometheusRegistry registry = new PrometheusRegistry();
		registry.register(() -> GaugeSnapshot.builder()
			.name(StandardProcessMetrics.START_TIME)
			.dataPoint(GaugeDataPointSnapshot.builder().value(1).build())
			.build());
		registry.register(this.metrics);
		assertThat(names(registry.scrape())).containsOnlyOnce(StandardProcessMetrics.START_TIME)
			.containsAll(StandardProcessMetrics.NAMES);
	}

	@Test
	void givesEverySeriesTheConstantLabels() {
		MetricSnapshots snapshots = new StandardProcessMetrics(Map.of("region", "eu", "cluster", "dev")).collect();
		assertThat(names(snapshots)).containsExactlyInAnyOrderElementsOf(StandardProcessMetrics.NAMES);
		List<Labels> labels = new ArrayList<>();
		snapshots.forEach((snapshot) -> snapshot.getDataPoints().forEach((point) -> labels.add(point.getLabels())));
		assertThat(labels).hasSizeGreaterThanOrEqualTo(StandardProcessMetrics.NAMES.size())
			.containsOnly(Labels.of("cluster", "dev", "region", "eu"));
	}

	private static List<String> names(MetricSnapshots snapshots) {
		List<String> names = new ArrayList<>();
		snapshots.forEach((snapshot) -> names.add(snapshot.getMetadata().getPrometheusName()));
		return names;
	}

}
