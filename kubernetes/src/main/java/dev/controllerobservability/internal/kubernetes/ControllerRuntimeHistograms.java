package dev.controllerobservability.internal.kubernetes;

import java.util.Collection;
import java.util.List;
import java.util.Map;

import io.prometheus.metrics.model.registry.PrometheusRegistry;

import dev.controllerobservability.internal.kubernetes.KubernetesConventions;
import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.NativeHistogram;

/**
 * controller-runtime's three histograms as controller-runtime declares them
 * ({@link NativeHistogram}), registered with the application's
 * {@link PrometheusRegistry}.
 */
public final class ControllerRuntimeHistograms {

	public static final String RECONCILE_TIME = "controller_runtime_reconcile_time_seconds";

	public static final String QUEUE_DURATION = "workqueue_queue_duration_seconds";

	public static final String WORK_DURATION = "workqueue_work_duration_seconds";

	private final NativeHistogram reconcileTime;

	private final NativeHistogram queueDuration;

	private final NativeHistogram workDuration;

	/**
	 * Creates the histograms and registers those not disabled.
	 * @param registry the application's Prometheus registry
	 * @param disabled Prometheus names not to register (they are still recorded, unseen)
	 */
	public ControllerRuntimeHistograms(PrometheusRegistry registry, Collection<String> disabled) {
		this(registry, disabled, Map.of());
	}

	/**
	 * Creates the histograms with labels every series carries, and registers those not
	 * disabled.
	 * @param registry the application's Prometheus registry
	 * @param disabled Prometheus names not to register (they are still recorded, unseen)
	 * @param constantLabels labels with the same value on every series, such as the tags
	 * the registry gives every Micrometer meter; a histogram's own label of the same name
	 * wins
	 */
	public ControllerRuntimeHistograms(PrometheusRegistry registry, Collection<String> disabled,
			Map<String, String> constantLabels) {
		this.reconcileTime = histogram(RECONCILE_TIME, "Length of time per reconciliation per controller",
				MetricConventions.CONTROLLER_RUNTIME_DURATION_BUCKETS, constantLabels, "controller");
		this.queueDuration = histogram(QUEUE_DURATION,
				"How long in seconds an item stays in workqueue before being requested",
				KubernetesConventions.WORKQUEUE_BUCKETS, constantLabels, "name", "controller");
		this.workDuration = histogram(WORK_DURATION, "How long in seconds processing an item from workqueue takes.",
				KubernetesConventions.WORKQUEUE_BUCKETS, constantLabels, "name", "controller");
		for (NativeHistogram histogram : List.of(this.reconcileTime, this.queueDuration, this.workDuration)) {
			if (!disabled.contains(histogram.getPrometheusName())) {
				histogram.register(registry);
			}
		}
	}

	/**
	 * The series of one controller.
	 * @param controller the controller name
	 * @return its reconcile time, queue duration and work duration series
	 */
	public Series forController(String controller) {
		return new Series(this.reconcileTime.labelValues(controller),
				this.queueDuration.labelValues(controller, controller),
				this.workDuration.labelValues(controller, controller));
	}

	private static NativeHistogram histogram(String name, String help, List<Double> buckets,
			Map<String, String> constantLabels, String... labels) {
		return NativeHistogram.builder(name, help, buckets)
			.labelNames(labels)
			.constLabels(NativeHistogram.constantLabels(constantLabels, labels))
			.build();
	}

	/**
	 * One controller's histogram series, in seconds.
	 *
	 * @param reconcileTime {@code controller_runtime_reconcile_time_seconds{controller}}
	 * @param queueDuration {@code workqueue_queue_duration_seconds{name,controller}}
	 * @param workDuration {@code workqueue_work_duration_seconds{name,controller}}
	 */
	public record Series(NativeHistogram.DataPoint reconcileTime, NativeHistogram.DataPoint queueDuration,
			NativeHistogram.DataPoint workDuration) {
	}

}
