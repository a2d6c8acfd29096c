package dev.controllerobservability.internal.kubernetes;

import java.util.Collection;
import java.util.List;
import java.util.Map;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.NativeHistogram;
import dev.controllerobservability.kubernetes.client.RestClientMetric;

/**
 * controller-runtime's opt-in {@code rest_client_request_size_bytes} and
 * {@code rest_client_response_size_bytes} as it declares them: client-go's size buckets
 * and native buckets ({@link NativeHistogram}), registered with the application's
 * {@link PrometheusRegistry}. A family that is not enabled is neither created nor
 * registered.
 */
public final class RestClientSizes {

	private final @Nullable NativeHistogram requestSize;

	private final @Nullable NativeHistogram responseSize;

	/**
	 * Creates the enabled histograms and registers those not disabled.
	 * @param registry the application's Prometheus registry
	 * @param requestSize whether to create {@code rest_client_request_size_bytes}
	 * @param responseSize whether to create {@code rest_client_response_size_bytes}
	 * @param disabled Prometheus names not to register (they are still recorded, unseen)
	 * @param constantLabels labels with the same value on every series; a histogram's own
	 * label of the same name wins
	 */
	public RestClientSizes(PrometheusRegistry registry, boolean requestSize, boolean responseSize,
			Collection<String> disabled, Map<String, String> constantLabels) {
		this.requestSize = requestSize
				? register(registry, disabled, histogram(RestClientMetric.REQUEST_SIZE.prometheusName(),
						"Request size in bytes. Broken down by verb and host.", constantLabels))
				: null;
		this.responseSize = responseSize
				? register(registry, disabled, histogram(RestClientMetric.RESPONSE_SIZE.prometheusName(),
						"Response size in bytes. Broken down by verb and host.", constantLabels))
				: null;
	}

	/**
	 * The families among {@code enabled} that are registered with the
	 * {@link PrometheusRegistry}, past Micrometer.
	 * @param enabled the enabled opt-in families
	 * @return their Prometheus names
	 */
	public static List<String> families(Collection<RestClientMetric> enabled) {
		return enabled.stream()
			.filter((metric) -> metric == RestClientMetric.REQUEST_SIZE || metric == RestClientMetric.RESPONSE_SIZE)
			.map(RestClientMetric::prometheusName)
			.sorted()
			.toList();
	}

	/**
	 * Whether request sizes are recorded.
	 * @return whether {@code rest_client_request_size_bytes} is enabled
	 */
	public boolean recordsRequests() {
		return this.requestSize != null;
	}

	/**
	 * Whether response sizes are recorded.
	 * @return whether {@code rest_client_response_size_bytes} is enabled
	 */
	public boolean recordsResponses() {
		return this.responseSize != null;
	}

	/**
	 * Records the body size of a request, if request sizes are enabled.
	 * @param verb the HTTP method
	 * @param host the API server's host and port
	 * @param bytes the body bytes
	 */
	public void request(String verb, String host, long bytes) {
		if (this.requestSize != null) {
			this.requestSize.labelValues(verb, host).observe(bytes);
		}
	}

	/**
	 * Records the body size of a response, if response sizes are enabled.
	 * @param verb the HTTP method
	 * @param host the API server's host and port
	 * @param bytes the body bytes
	 */
	public void response(String verb, String host, long bytes) {
		if (this.responseSize != null) {
			this.responseSize.labelValues(verb, host).observe(bytes);
		}
	}

	private static NativeHistogram histogram(String name, String help, Map<String, String> constantLabels) {
		// Byte counts are no durations: ALL_VALUES gives every size its own native
		// bucket.
		return NativeHistogram.builder(name, help, KubernetesConventions.CLIENT_GO_SIZE_BUCKETS)
			.range(NativeHistogram.Range.ALL_VALUES)
			.labelNames(KubernetesConventions.VERB, KubernetesConventions.HOST)
			.constLabels(NativeHistogram.constantLabels(constantLabels, KubernetesConventions.VERB,
					KubernetesConventions.HOST))
			.build();
	}

	private static NativeHistogram register(PrometheusRegistry registry, Collection<String> disabled,
			NativeHistogram histogram) {
		if (!disabled.contains(histogram.getPrometheusName())) {
			histogram.register(registry);
		}
		return histogram;
	}

}
