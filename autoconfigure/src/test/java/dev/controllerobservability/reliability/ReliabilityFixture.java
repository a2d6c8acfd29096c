package dev.controllerobservability.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.metrics.ControllerMeterFilter;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.internal.operations.OperationDurations;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.internal.stability.StabilityPolicy;

/**
 * The starter's recording path wired by hand on a Prometheus registry, as the
 * auto-configuration wires it, for stress tests that need no Spring context.
 */
final class ReliabilityFixture {

	final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	final RecordingFailures failures;

	final CardinalityLimiter limiter;

	final ControllerOperations operations;

	final ControllerMetrics metrics;

	ReliabilityFixture(int maxLabelValues, int maxLabelValueLength) {
		this(maxLabelValues, maxLabelValueLength, CardinalityLimiter.DEFAULT_MAX_SERIES_PER_METRIC,
				List.of("provisioner"));
	}

	/** With the given limits, operation tags and labels of the catalog counter. */
	ReliabilityFixture(int maxLabelValues, int maxLabelValueLength, int maxSeriesPerMetric, List<String> labels) {
		this.registry.config().meterFilter(new ControllerMeterFilter(NamingPolicy.builder("karpenter").build()));
		this.failures = new RecordingFailures(this.registry, "karpenter", Duration.ofMinutes(1));
		this.limiter = CardinalityLimiter.builder(this.registry, "karpenter")
			.maxLabelValues(maxLabelValues)
			.maxLabelValueLength(maxLabelValueLength)
			.maxSeriesPerMetric(maxSeriesPerMetric)
			.build();
		ObservationRegistry observations = ObservationRegistry.create();
		OperationRecorder handler = new OperationRecorder(this.registry, OperationDurations.micrometer(this.registry),
				this.failures, this.limiter);
		observations.observationConfig().observationHandler(handler);
		// The direct path, as the auto-configuration sets it up when nothing traces.
		this.operations = ControllerOperations.builder(observations, this.failures)
			.namespace("karpenter")
			.labelKeys(labels)
			.cardinalityLimiter(this.limiter)
			.directRecording(handler, List.of())
			.build();
		this.metrics = new ControllerMetrics(this.registry,
				MetricCatalog.of("karpenter",
						List.of(MetricDefinition.counter("nodes_launched_total")
							.help("Number of nodes launched.")
							.labels(labels.toArray(String[]::new))
							.build())),
				StabilityPolicy.showAll(), this.limiter, this.failures, List.of(0.1, 1.0));
	}

}
