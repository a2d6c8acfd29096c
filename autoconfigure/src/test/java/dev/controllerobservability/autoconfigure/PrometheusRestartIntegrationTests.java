package dev.controllerobservability.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Tags;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.test.PrometheusSample;
import dev.controllerobservability.test.PrometheusScrape;
import dev.controllerobservability.test.PrometheusServer;
import dev.controllerobservability.live.LiveMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prometheus goes down for a few seconds while the application keeps recording: after the
 * restart, scraping resumes and the counter continues from where the application is, with
 * no reset.
 */
@SpringBootTest(classes = MinimalAppPrometheusIntegrationTests.TestApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "spring.config.name=minimal-app")
@AutoConfigureMetrics
class PrometheusRestartIntegrationTests {

	private static final String SERIES = "karpenter_bind_duration_seconds_count{provisioner=\"restart\"}";

	@LocalServerPort
	private int port;

	@Autowired
	private ControllerOperations operations;

	@Autowired
	private LiveMetrics liveMetrics;

	@Test
	void resumesScrapingWithoutResettingCounters() throws InterruptedException {
		ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
		load.scheduleAtFixedRate(() -> this.operations.observe("bind", Tags.of("provisioner", "restart"), () -> {
		}), 0, 20, TimeUnit.MILLISECONDS);
		Instant start = Instant.now();
		try (PrometheusServer prometheus = PrometheusServer.scraping(this.port)
			.start()
			.awaitTargetsUp(Duration.ofSeconds(30))) {
			double beforeRestart = prometheus
				.awaitQuery(SERIES, (samples) -> samples.size() == 1 && samples.get(0).value() > 0,
						Duration.ofSeconds(30))
				.get(0)
				.value();
			prometheus.restart(Duration.ofSeconds(3)).awaitTargetsUp(Duration.ofSeconds(30));
			prometheus.awaitQuery(SERIES,
					(samples) -> samples.size() == 1 && samples.get(0).value() > beforeRestart + 100,
					Duration.ofSeconds(30));
			load.shutdown();
			assertThat(load.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
			double recorded = PrometheusScrape.parse(this.liveMetrics.scrape())
				.value("karpenter_bind_duration_seconds_count",
						Map.of("error", "none", "provisioner", "restart", "result", "success"));
			prometheus.awaitQuery(SERIES, (samples) -> samples.size() == 1 && samples.get(0).value() == recorded,
					Duration.ofSeconds(30));
			assertThat(prometheus.queryScalar("resets(" + SERIES.replace("}", "}[5m]") + ")")).isZero();
			// The range ends past the last scrape, so its last point is the latest
			// sample.
			Map<Map<String, String>, List<Double>> history = prometheus.queryRange(SERIES, start,
					Instant.now().plusSeconds(2), Duration.ofSeconds(1));
			assertThat(history).hasSize(1);
			List<Double> values = history.values().iterator().next();
			for (int i = 1; i < values.size(); i++) {
				assertThat(values.get(i)).as("sample %d", i).isGreaterThanOrEqualTo(values.get(i - 1));
			}
			assertThat(values.get(values.size() - 1)).isEqualTo(recorded);
		}
		finally {
			load.shutdownNow();
		}
	}

}
