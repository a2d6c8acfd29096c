package dev.controllerobservability.it.otlp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Tags;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.controllerobservability.it.fixtures.Binder;
import dev.controllerobservability.it.fixtures.ProvisioningConfiguration;
import dev.controllerobservability.operations.ControllerOperations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * With micrometer-registry-otlp next to the starter, operation metrics reach an OTLP
 * receiver with their namespace, description, common tags, operation tags and buckets, in
 * seconds.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@AutoConfigureMetrics
class OtlpExportTests {

	private static final OtlpReceiver receiver = new OtlpReceiver();

	@Autowired
	private ControllerOperations operations;

	@Autowired
	private Binder binder;

	@DynamicPropertySource
	static void exportToReceiver(DynamicPropertyRegistry registry) {
		registry.add("management.otlp.metrics.export.url", receiver::url);
		registry.add("management.otlp.metrics.export.step", () -> "1s");
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@Test
	void exportsAnnotatedOperationsAsHistogramsInSeconds() {
		this.binder.bind("gpu", 3);
		this.binder.bind("gpu", 2);
		assertThatIllegalArgumentException().isThrownBy(() -> this.binder.bind("gpu", -1));
		Metric metric = awaitCount("karpenter.allocation_controller.bind.duration",
				Map.of("provisioner", "gpu", "result", "success"), 2);
		assertThat(metric.getUnit()).isEqualTo("seconds");
		assertThat(metric.getDescription()).isEqualTo("Duration of binding pods to nodes.");
		assertThat(metric.hasHistogram()).isTrue();
		List<HistogramDataPoint> points = metric.getHistogram().getDataPointsList();
		assertThat(points).extracting(OtlpExportTests::attributes)
			.containsExactlyInAnyOrder(
					Map.of("cluster", "dev", "provisioner", "gpu", "result", "success", "error", "none"),
					Map.of("cluster", "dev", "provisioner", "gpu", "result", "error", "error",
							"IllegalArgumentException"));
		for (HistogramDataPoint point : points) {
			assertThat(point.getExplicitBoundsList()).containsExactly(0.5, 5.0);
			// Binding takes far less than half a second: every call lands in the first
			// bucket.
			assertThat(point.getBucketCountsList()).containsExactly(point.getCount(), 0L, 0L);
			assertThat(point.getSum()).isLessThan(0.5 * point.getCount());
		}
		Metric inFlight = receiver.latest("karpenter.allocation_controller.bind.in_flight").orElseThrow();
		assertThat(inFlight.getDescription()).isEqualTo("Number of bind operations in flight.");
		assertThat(inFlight.getGauge().getDataPointsList()).singleElement().satisfies((point) -> {
			assertThat(point.getAsDouble()).isZero();
			assertThat(attributes(point.getAttributesList())).isEqualTo(Map.of("cluster", "dev", "provisioner", "gpu"));
		});
	}

	@Test
	void exportsObservedOperationsWithTheDefaultBucketsInSeconds() {
		this.operations.observe("launch", Tags.of("provisioner", "spot"), () -> "launched");
		Metric metric = awaitCount("karpenter.launch.duration", Map.of("provisioner", "spot"), 1);
		assertThat(metric.getUnit()).isEqualTo("seconds");
		HistogramDataPoint point = metric.getHistogram().getDataPoints(0);
		assertThat(attributes(point))
			.isEqualTo(Map.of("cluster", "dev", "provisioner", "spot", "result", "success", "error", "none"));
		// controller-runtime's reconcile buckets: 0.005 s up to 60 s.
		assertThat(point.getExplicitBoundsList()).startsWith(0.005, 0.01, 0.025).endsWith(60.0);
	}

	private Metric awaitCount(String name, Map<String, String> attributes, long count) {
		return await().atMost(Duration.ofSeconds(30))
			.until(() -> receiver.latest(name).orElse(null),
					(metric) -> metric != null && metric.getHistogram()
						.getDataPointsList()
						.stream()
						.anyMatch((point) -> attributes(point).entrySet().containsAll(attributes.entrySet())
								&& point.getCount() == count));
	}

	private static Map<String, String> attributes(HistogramDataPoint point) {
		return attributes(point.getAttributesList());
	}

	private static Map<String, String> attributes(List<KeyValue> keyValues) {
		Map<String, String> attributes = new LinkedHashMap<>();
		for (KeyValue attribute : keyValues) {
			attributes.put(attribute.getKey(), attribute.getValue().getStringValue());
		}
		return attributes;
	}

	@SpringBootApplication
	@Import(ProvisioningConfiguration.class)
	static class OtlpControllerApplication {

	}

}
