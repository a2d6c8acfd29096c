package dev.controllerobservability.kubernetes.client;

/**
 * The opt-in {@code rest_client_*} families of controller-runtime
 * ({@code metrics.RegisterRESTClientMetrics}) that a fabric8 client can feed. Off unless
 * enabled, as upstream:
 *
 * <pre>{@code
 * KubernetesClientMetrics clientMetrics = KubernetesClientMetrics.builder(registry, failures)
 *     .prometheusRegistry(registry.getPrometheusRegistry())
 *     .enable(RestClientMetric.REQUEST_SIZE, RestClientMetric.RESPONSE_SIZE, RestClientMetric.REQUEST_RETRIES)
 *     .build();
 * }</pre> Upstream's {@code rest_client_rate_limiter_duration_seconds} and
 * {@code rest_client_dns_resolution_duration_seconds} are not offered: fabric8 has no
 * client-side rate limiter, and neither fabric8's HTTP client abstraction nor the JDK
 * HTTP client it uses tells anyone when a host name is resolved.
 */
public enum RestClientMetric {

	/**
	 * {@code rest_client_request_size_bytes{verb,host}}: the body bytes of each attempt
	 * that got a response (upstream's {@code MetricRequestSize}).
	 */
	REQUEST_SIZE("rest_client_request_size_bytes"),

	/**
	 * {@code rest_client_response_size_bytes{verb,host}}: the body bytes a call's final
	 * response delivered (upstream's {@code MetricResponseSize}).
	 */
	RESPONSE_SIZE("rest_client_response_size_bytes"),

	/**
	 * {@code rest_client_request_retries_total{code,verb,host}}: each attempt after a
	 * call's first, by that attempt's own outcome (upstream's
	 * {@code MetricRequestRetry}).
	 */
	REQUEST_RETRIES("rest_client_request_retries_total");

	private final String prometheusName;

	RestClientMetric(String prometheusName) {
		this.prometheusName = prometheusName;
	}

	/**
	 * The family's exposed name.
	 * @return such as {@code rest_client_request_size_bytes}
	 */
	public String prometheusName() {
		return this.prometheusName;
	}

}
