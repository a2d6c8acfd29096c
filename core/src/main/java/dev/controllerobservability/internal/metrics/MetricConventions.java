package dev.controllerobservability.internal.metrics;

import java.util.List;

/**
 * The constants every controller metric shares: namespace default, label keys and values,
 * and bucket sets. No label key or bucket set is spelled anywhere else.
 */
public final class MetricConventions {

	/** Namespace used when neither a namespace nor an application name is configured. */
	public static final String DEFAULT_NAMESPACE = "controller";

	/**
	 * Label carrying the outcome of an operation: {@link #SUCCESS}, {@link #ERROR} or
	 * {@link #CANCELLED}.
	 */
	public static final String RESULT_LABEL = "result";

	/** Label carrying the simple class name of the exception an operation threw. */
	public static final String ERROR_LABEL = "error";

	/** Value of {@link #RESULT_LABEL} for an operation that returned normally. */
	public static final String SUCCESS = "success";

	/** Value of {@link #RESULT_LABEL} for an operation that threw. */
	public static final String ERROR = "error";

	/**
	 * Value of {@link #RESULT_LABEL} for an asynchronous operation cancelled before it
	 * ended: its subscription was cancelled, or its future completed with a
	 * {@code CancellationException}.
	 */
	public static final String CANCELLED = "cancelled";

	/** Value of a label that was not given, and of {@link #ERROR_LABEL} on success. */
	public static final String NONE = "none";

	/**
	 * Operation label keys used when none are configured: none, so that an operation
	 * carries only {@link #RESULT_LABEL} and {@link #ERROR_LABEL} until the controller
	 * names its own keys.
	 */
	public static final List<String> DEFAULT_OPERATION_LABELS = List.of();

	/** Label keys Prometheus or this starter reserve; users may not declare them. */
	public static final List<String> RESERVED_LABELS = List.of("le", "quantile", RESULT_LABEL, ERROR_LABEL);

	/**
	 * Prometheus name prefixes of the Kubernetes standard metrics (client-go,
	 * controller-runtime, leader election). These names are a shared standard: unlike the
	 * controller's own metrics they are <em>not</em> prefixed with the controller's
	 * namespace, and the linter exempts them from its namespace rule (promtool's rules
	 * still apply).
	 */
	public static final List<String> KUBERNETES_PREFIXES = List.of("rest_client", "controller_runtime", "workqueue",
			"leader_election");

	/**
	 * Name prefixes of framework meters (JVM, process, HTTP server, ...). A namespace may
	 * not be one of them, so controller metrics and framework metrics never mix.
	 */
	public static final List<String> FRAMEWORK_PREFIXES = List.of("jvm", "process", "system", "http", "tomcat", "jetty",
			"undertow", "netty", "logback", "log4j2", "executor", "application", "disk", "hikaricp", "jdbc", "spring",
			"tasks", "cache", "kafka", "rabbitmq", "mongodb", "lettuce", "r2dbc", "grpc", "hibernate", "rest_client",
			"controller_runtime", "workqueue", "leader_election");

	/**
	 * Names, after the namespace and without {@code _total}, of the metrics the starter
	 * keeps about itself: a declared metric of one of these names would take its place.
	 */
	public static final List<String> SELF_METRICS = List.of("observability_errors", "registered_metrics",
			"disabled_metrics", "hidden_metrics", "cardinality_enforcement_unexpected_categorizations",
			"cardinality_enforcement_series_overflows", "observability_scrape_errors");

	/**
	 * Label of {@code <namespace>_observability_scrape_errors_total}: why a scrape was
	 * refused.
	 */
	public static final String REASON_LABEL = "reason";

	/**
	 * Value of {@link #REASON_LABEL} for a scrape refused because it passed its maximum
	 * size.
	 */
	public static final String TOO_LARGE = "too_large";

	/** Suffix of operation duration meters; Prometheus adds {@code _seconds}. */
	public static final String DURATION_SUFFIX = "duration";

	/** Suffix of operation in-flight gauges. */
	public static final String IN_FLIGHT_SUFFIX = "in_flight";

	/**
	 * controller-runtime's {@code controller_runtime_reconcile_time_seconds} buckets, in
	 * seconds: the 40 boundaries 0.005 ... 60 that controller dashboards expect.
	 */
	public static final List<Double> CONTROLLER_RUNTIME_DURATION_BUCKETS = List.of(0.005, 0.01, 0.025, 0.05, 0.1, 0.15,
			0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0,
			4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0);

	private MetricConventions() {
	}

	/**
	 * Whether a Prometheus family name is one of the Kubernetes standard names.
	 * @param familyName the exposed name, such as {@code workqueue_depth}
	 * @return whether it starts with one of {@link #KUBERNETES_PREFIXES}
	 */
	public static boolean isKubernetesStandardName(String familyName) {
		for (String prefix : KUBERNETES_PREFIXES) {
			if (familyName.startsWith(prefix + "_")) {
				return true;
			}
		}
		return false;
	}

}
