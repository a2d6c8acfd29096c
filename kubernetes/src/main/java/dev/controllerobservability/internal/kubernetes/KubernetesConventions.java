package dev.controllerobservability.internal.kubernetes;

import java.util.List;

/**
 * The metric names, labels and buckets that Go controllers get from client-go and
 * controller-runtime, and that existing dashboards and alerts query. These names are a
 * shared standard: unlike the controller's own metrics they are <em>not</em> prefixed
 * with the controller's namespace, and the linter exempts them from its namespace rule
 * (promtool's rules still apply); their prefixes are
 * {@link dev.controllerobservability.internal.metrics.MetricConventions#KUBERNETES_PREFIXES}.
 */
public final class KubernetesConventions {

	/** client-go's {@code rest_client_request_duration_seconds} buckets, in seconds. */
	public static final List<Double> CLIENT_GO_LATENCY_BUCKETS = List.of(0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0,
			8.0, 15.0, 30.0, 60.0);

	/**
	 * client-go's {@code rest_client_request_size_bytes} and
	 * {@code rest_client_response_size_bytes} buckets, in bytes: 64 B to 16 MiB.
	 */
	public static final List<Double> CLIENT_GO_SIZE_BUCKETS = List.of(64.0, 256.0, 512.0, 1024.0, 4096.0, 16384.0,
			65536.0, 262144.0, 1048576.0, 4194304.0, 16777216.0);

	/** client-go's label of the HTTP method on its histograms and retry counter. */
	public static final String VERB = "verb";

	/** client-go's label of the API server's host and port. */
	public static final String HOST = "host";

	/** client-go's label of the HTTP status code, or {@link #NO_RESPONSE_CODE}. */
	public static final String CODE = "code";

	/**
	 * controller-runtime's workqueue duration buckets (the ones labelled {@code name} and
	 * {@code controller}), in seconds: {@code ExponentialBuckets(10e-9, 10, 12)}, 10 ns
	 * to 1000 s.
	 */
	public static final List<Double> WORKQUEUE_BUCKETS = List.of(1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0,
			10.0, 100.0, 1000.0);

	/** The {@code priority} of {@code workqueue_depth} for an ordinary item. */
	public static final String DEFAULT_PRIORITY = "0";

	/**
	 * The {@code priority} of {@code workqueue_depth} for an item from the initial list
	 * of a watch ({@code handler.LowPriority}).
	 */
	public static final String LOW_PRIORITY = "-100";

	/** The {@code code} label value client-go uses when no HTTP response arrived. */
	public static final String NO_RESPONSE_CODE = "<error>";

	private KubernetesConventions() {
	}

}
