package dev.controllerobservability.autoconfigure.scrape;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;

import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.ControllerObservabilityFailureAnalysis;
import dev.controllerobservability.scrape.SharedScrape;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared scrape takes the place of Spring Boot's scrape endpoint, backs off for a
 * {@code PrometheusScrapeEndpoint} of the application's own, and takes its maximum size
 * from {@code controller.observability.scrape.max-size}, checked at start-up.
 */
class SharedScrapeAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
						ObservationAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class,
						ControllerObservabilityAutoConfiguration.class, SharedScrapeAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=prometheus",
				"controller.observability.namespace=karpenter");

	@Test
	void replacesSpringBootsScrapeEndpoint() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeansOfType(PrometheusScrapeEndpoint.class)).hasSize(1)
				.allSatisfy((name, endpoint) -> assertThat(endpoint).isInstanceOf(SharedScrapeEndpoint.class));
			assertThat(context.getBean(SharedScrape.class).maxSize()).isEqualTo(SharedScrape.defaultMaxSize());
		});
	}

	@Test
	void servesEachFormatOfBootsEndpointWithItsContentType() {
		this.contextRunner.run((context) -> {
			SharedScrapeEndpoint endpoint = context.getBean(SharedScrapeEndpoint.class);
			for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
				WebEndpointResponse<?> response = endpoint.scrape(format,
						Set.of("karpenter_observability_scrape_errors"));
				assertThat(response.getStatus()).isEqualTo(200);
				assertThat(response.getContentType()).isEqualTo(format.getProducedMimeType());
				assertThat(MimeType.valueOf(SharedScrapeEndpoint.scrapeFormat(format).contentType()))
					.isEqualTo(format.getProducedMimeType());
				byte[] body = ((Resource) response.getBody()).getContentAsByteArray();
				assertThat(body).hasSize((int) ((Resource) response.getBody()).contentLength());
				if (format != PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) {
					assertThat(new String(body))
						.contains("karpenter_observability_scrape_errors_total{reason=\"too_large\"} 0")
						.doesNotContain("jvm_");
				}
			}
		});
	}

	@Test
	void writesTheScrapeWithBootsExporterProperties() {
		String errors = "karpenter_observability_scrape_errors";
		this.contextRunner.run((context) -> assertThat(text(context, errors)).doesNotContain("_created"));
		this.contextRunner.withPropertyValues(
				"management.prometheus.metrics.export.properties.io.prometheus.exporter.includeCreatedTimestamps=true")
			.run((context) -> assertThat(text(context, errors))
				.contains("karpenter_observability_scrape_errors_created{reason=\"too_large\"}"));
	}

	private static String text(AssertableApplicationContext context, String name) throws IOException {
		WebEndpointResponse<?> response = context.getBean(SharedScrapeEndpoint.class)
			.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, Set.of(name));
		return ((Resource) response.getBody()).getContentAsString(StandardCharsets.UTF_8);
	}

	@Test
	void backsOffForAScrapeEndpointOfTheApplicationsOwn() {
		this.contextRunner.withUserConfiguration(OwnEndpoint.class).run((context) -> {
			assertThat(context.getBeansOfType(PrometheusScrapeEndpoint.class)).containsOnlyKeys("ownEndpoint");
			assertThat(context).doesNotHaveBean(SharedScrapeEndpoint.class);
		});
	}

	@Test
	void backsOffWhenTheEndpointIsNotExposed() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(PrometheusScrapeEndpoint.class));
	}

	@Test
	void takesTheMaximumSizeFromTheProperty() {
		this.contextRunner.withPropertyValues("controller.observability.scrape.max-size=64MB")
			.run((context) -> assertThat(context.getBean(SharedScrape.class).maxSize()).isEqualTo(64L * 1024 * 1024));
	}

	@Test
	void refusesAScrapeLargerThanTheMaximumNamingTheProperty() {
		this.contextRunner.withPropertyValues("controller.observability.scrape.max-size=100B").run((context) -> {
			WebEndpointResponse<?> response = context.getBean(SharedScrapeEndpoint.class)
				.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null);
			assertThat(response.getStatus()).isEqualTo(500);
			assertThat(response.getContentType()).hasToString("text/plain;charset=UTF-8");
			assertThat((String) response.getBody()).startsWith(
					"The scrape was refused: it passed its maximum size of 100 bytes (controller.observability.scrape.max-size) at ")
				.contains("Raise controller.observability.scrape.max-size above the size of a whole scrape");
			assertThat(context.getBean(PrometheusMeterRegistry.class)
				.get("karpenter.observability.scrape.errors")
				.tag("reason", "too_large")
				.counter()
				.count()).isEqualTo(1);
		});
	}

	@Test
	void stopsStartUpOnAMaximumSizeOfZeroNamingTheProperty() {
		this.contextRunner.withPropertyValues("controller.observability.scrape.max-size=0B").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = ControllerObservabilityFailureAnalysis.analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("Property: controller.observability.scrape.max-size\n")
				.contains("a scrape's maximum size must be more than 0 bytes");
			assertThat(analysis.getAction()).contains("leave it out for a quarter of the maximum heap");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnEndpoint {

		@Bean
		PrometheusScrapeEndpoint ownEndpoint(PrometheusRegistry registry) {
			return new PrometheusScrapeEndpoint(registry, null);
		}

	}

}
