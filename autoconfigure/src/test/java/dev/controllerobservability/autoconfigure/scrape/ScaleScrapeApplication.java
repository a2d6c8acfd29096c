package dev.controllerobservability.autoconfigure.scrape;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.micrometer.core.instrument.Tags;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.scrape.SharedScrape;

/**
 * The controller {@link ParallelScrapeScaleTests} scrapes, run as a child JVM with a heap
 * of its own: the starter on Tomcat with {@value #SERIES} series of the operation
 * {@code reconcile}, on the backend given as the first argument. With {@code stock} as
 * the second, Spring Boot's own scrape endpoint serves the scrape instead. It prints its
 * port, then answers {@code reset} (peak heap forgotten), {@code report} (peak heap and
 * renderings since) and {@code exit} on its standard input.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ScaleScrapeApplication {

	/** The number of operation series. */
	static final int SERIES = 50_000;

	public static void main(String[] args) throws IOException {
		Map<String, Object> properties = new HashMap<>();
		properties.put("spring.config.name", "scale");
		properties.put("server.port", "0");
		properties.put("management.endpoints.web.exposure.include", "prometheus");
		properties.put("controller.observability.namespace", "scale");
		properties.put("controller.observability.operations.tags", "provisioner");
		properties.put("controller.observability.operations.backend", args[0]);
		properties.put("controller.observability.max-label-values", "100000");
		properties.put("controller.observability.max-series-per-metric", "100000");
		properties.put("controller.observability.lint.mode", "off");
		properties.put("controller.observability.kubernetes.enabled", "false");
		for (String framework : new String[] { "jvm", "process", "system", "disk", "executor", "application", "logback",
				"tomcat", "http" }) {
			properties.put("management.metrics.enable." + framework, "false");
		}
		SpringApplicationBuilder application = new SpringApplicationBuilder(ScaleScrapeApplication.class)
			.properties(properties)
			.logStartupInfo(false);
		if (args.length > 1 && args[1].equals("stock")) {
			application.sources(StockScrapeEndpoint.class);
		}
		ConfigurableApplicationContext context = application.run();
		ControllerOperations operations = context.getBean(ControllerOperations.class);
		for (int i = 0; i < SERIES; i++) {
			operations.observe("reconcile", Tags.of("provisioner", "provisioner-" + i), () -> 0);
		}
		System.out.println("ENDPOINT " + context.getBeansOfType(PrometheusScrapeEndpoint.class).values());
		System.out.println("PORT " + ((WebServerApplicationContext) context).getWebServer().getPort());
		BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (String command = commands.readLine(); command != null; command = commands.readLine()) {
			switch (command) {
				case "reset" -> {
					System.gc();
					heapPools().forEach(MemoryPoolMXBean::resetPeakUsage);
					System.out.println("RESET");
				}
				case "report" -> {
					long peak = heapPools().mapToLong((pool) -> pool.getPeakUsage().getUsed()).sum();
					long renderings = context.getBeanProvider(SharedScrape.class)
						.stream()
						.mapToLong(SharedScrape::renderings)
						.sum();
					System.out.println("REPORT peak=" + peak + " renderings=" + renderings + " max="
							+ Runtime.getRuntime().maxMemory());
				}
				default -> {
					context.close();
					return;
				}
			}
		}
		context.close();
	}

	private static java.util.stream.Stream<MemoryPoolMXBean> heapPools() {
		return ManagementFactory.getMemoryPoolMXBeans().stream().filter((pool) -> pool.getType() == MemoryType.HEAP);
	}

}
