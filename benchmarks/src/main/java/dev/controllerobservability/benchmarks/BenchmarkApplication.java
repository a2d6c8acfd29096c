package dev.controllerobservability.benchmarks;

import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.OperationTag;

/**
 * A controller with the starter, auto-configured as an application would be, for the
 * recording and scrape benchmarks: namespace {@code bench}, a declared
 * {@code bench_pods_bound_total} counter, per-object metrics, and an
 * {@link ObservedOperation} bean. Framework meters are off so that a scrape holds the
 * controller's series only.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class BenchmarkApplication {

	static ConfigurableApplicationContext start(Map<String, Object> extraProperties) {
		Map<String, Object> properties = new java.util.HashMap<>(Map.of(
				// Not the demo's application.yaml, which is on the class path too.
				"spring.config.name", "benchmark", "controller.observability.namespace", "bench",
				"controller.observability.max-label-values", "100000", "controller.observability.lint.mode", "off",
				"controller.observability.kubernetes.enabled", "false", "controller.observability.operations.tags",
				"provisioner", "controller.observability.metrics.pods_bound_total.type", "counter",
				"controller.observability.metrics.pods_bound_total.help", "Number of pods bound.",
				"controller.observability.metrics.pods_bound_total.labels", "provisioner"));
		for (String framework : new String[] { "jvm", "process", "system", "disk", "executor", "application", "logback",
				"tomcat", "http" }) {
			properties.put("management.metrics.enable." + framework, "false");
		}
		String ratio = "controller.observability.metrics.packing_efficiency_ratio.";
		properties.put(ratio + "type", "histogram");
		properties.put(ratio + "unit", "ratio");
		properties.put(ratio + "help", "Share of a node's CPU requested.");
		properties.put(ratio + "labels", "provisioner");
		properties.put(ratio + "buckets", RecordingBenchmark.RATIO_BUCKETS);
		// A per-object counter and one with the same three labels that is not per object.
		String renewals = "controller.observability.metrics.object_renewals_total.";
		properties.put(renewals + "type", "counter");
		properties.put(renewals + "help", "Renewals of an object.");
		properties.put(renewals + "labels", "result");
		properties.put(renewals + "per-object", "true");
		String plain = "controller.observability.metrics.renewals_total.";
		properties.put(plain + "type", "counter");
		properties.put(plain + "help", "Renewals by object, not per object.");
		properties.put(plain + "labels", "namespace,name,result");
		for (String metric : new String[] { "object_ready_status", "object_generation" }) {
			properties.put("controller.observability.metrics." + metric + ".type", "gauge");
			properties.put("controller.observability.metrics." + metric + ".help", "An object's state.");
			properties.put("controller.observability.metrics." + metric + ".per-object", "true");
		}
		// The scrape benchmark holds up to 50,000 series of one operation.
		properties.put("controller.observability.max-series-per-metric", "100000");
		properties.putAll(extraProperties);
		return new SpringApplicationBuilder(BenchmarkApplication.class).web(WebApplicationType.NONE)
			.properties(properties)
			.logStartupInfo(false)
			.run();
	}

	@Bean
	ObservedBinder observedBinder() {
		return new ObservedBinder();
	}

	/**
	 * Binds through {@code @ObservedOperation}, as an application's bean would.
	 */
	public static class ObservedBinder {

		private static final Object BOUND = new Object();

		@ObservedOperation("bind")
		public Object bind(@OperationTag("provisioner") String provisioner) {
			return BOUND;
		}

	}

}
