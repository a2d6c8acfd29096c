package dev.controllerobservability.it.otlp;

import java.util.concurrent.TimeUnit;

import io.micrometer.registry.otlp.OtlpConfig;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter makes seconds the OTLP base time unit unless the user chose one.
 */
class OtlpBaseTimeUnitTests {

	@Test
	void exportsTimersInSecondsByDefault() {
		assertThat(baseTimeUnit()).isEqualTo(TimeUnit.SECONDS);
	}

	@Test
	void leavesTheBaseTimeUnitTheUserChose() {
		assertThat(baseTimeUnit("--management.otlp.metrics.export.base-time-unit=milliseconds"))
			.isEqualTo(TimeUnit.MILLISECONDS);
	}

	@Test
	void leavesMicrometersDefaultWhenTheStarterIsDisabled() {
		assertThat(baseTimeUnit("--controller.observability.enabled=false")).isEqualTo(TimeUnit.MILLISECONDS);
	}

	private static TimeUnit baseTimeUnit(String... args) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			// Nothing listens there: the context is closed before the first step ends.
			.properties("management.otlp.metrics.export.url=http://127.0.0.1:1/v1/metrics")
			.run(args)) {
			return context.getBean(OtlpConfig.class).baseTimeUnit();
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
