package dev.controllerobservability.kubernetes.process;

import java.util.Map;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.test.PrometheusScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StandardProcessMetrics#addTo}: the one call that gives a registry without Spring
 * the standard {@code process_*} families, which a bare registry does not have.
 */
class StandardProcessMetricsWithoutSpringTests {

	@Test
	void aBareRegistryHasNoProcessFamily() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		assertThat(PrometheusScrape.parse(registry.scrape()).families())
			.noneMatch((name) -> name.startsWith("process_"));
	}

	@Test
	void addToGivesTheStandardFamiliesAndMicrometersUptime() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		StandardProcessMetrics.addTo(registry, registry.getPrometheusRegistry());
		PrometheusScrape scrape = PrometheusScrape.parse(registry.scrape());
		assertThat(scrape.families()).contains("process_cpu_seconds_total", "process_resident_memory_bytes",
				"process_virtual_memory_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds",
				"process_uptime_seconds");
		assertThat(scrape.value("process_start_time_seconds", Map.of())).isPositive();
		assertThat(scrape.value("process_open_fds", Map.of())).isPositive();
	}

}
