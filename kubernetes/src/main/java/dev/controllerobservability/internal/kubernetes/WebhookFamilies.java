package dev.controllerobservability.internal.kubernetes;

import java.util.List;

/**
 * controller-runtime's webhook metric families by their exposed names, help texts, labels
 * and buckets, as {@code pkg/webhook/internal/metrics/metrics.go},
 * {@code pkg/webhook/admission/metrics} and {@code pkg/webhook/conversion/metrics}
 * declare them.
 */
public final class WebhookFamilies {

	/** {@code controller_runtime_webhook_latency_seconds{webhook}}, a histogram. */
	public static final String LATENCY = "controller_runtime_webhook_latency_seconds";

	/** Help of {@link #LATENCY}. */
	public static final String LATENCY_HELP = "Histogram of the latency of processing admission requests";

	/**
	 * Classic buckets of {@link #LATENCY}: {@code ExponentialBuckets(10e-9, 10, 12)}, the
	 * workqueue's; native buckets as controller-runtime's other histograms.
	 */
	public static final List<Double> LATENCY_BUCKETS = KubernetesConventions.WORKQUEUE_BUCKETS;

	/**
	 * {@code controller_runtime_webhook_requests_total{webhook,code}}, as a meter name.
	 */
	public static final String REQUESTS = "controller.runtime.webhook.requests";

	/** Help of {@link #REQUESTS}. */
	public static final String REQUESTS_HELP = "Total number of admission requests by HTTP status code.";

	/**
	 * {@code controller_runtime_webhook_requests_in_flight{webhook}}, as a meter name.
	 */
	public static final String IN_FLIGHT = "controller.runtime.webhook.requests.in.flight";

	/** Help of {@link #IN_FLIGHT}. */
	public static final String IN_FLIGHT_HELP = "Current number of admission requests being served.";

	/** {@code controller_runtime_webhook_panics_total}, as a meter name. */
	public static final String PANICS = "controller.runtime.webhook.panics";

	/** Help of {@link #PANICS}. */
	public static final String PANICS_HELP = "Total number of webhook panics";

	/** {@code controller_runtime_conversion_webhook_panics_total}, as a meter name. */
	public static final String CONVERSION_PANICS = "controller.runtime.conversion.webhook.panics";

	/** Help of {@link #CONVERSION_PANICS}. */
	public static final String CONVERSION_PANICS_HELP = "Total number of conversion webhook panics";

	/** The label of every series but the panics: the webhook's path. */
	public static final String WEBHOOK_LABEL = "webhook";

	/** The HTTP status code label of {@link #REQUESTS}. */
	public static final String CODE_LABEL = "code";

	/** Codes whose series exist from the start, as upstream pre-sets them. */
	public static final List<Integer> PRESET_CODES = List.of(200, 500);

	/** The code of a request whose handler threw: what the server answers it with. */
	public static final int PANIC_CODE = 500;

	private WebhookFamilies() {
	}

}
