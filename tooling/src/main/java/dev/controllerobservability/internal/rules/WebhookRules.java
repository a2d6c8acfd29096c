package dev.controllerobservability.internal.rules;

import java.util.List;

import dev.controllerobservability.rules.AlertRule;

/**
 * The built-in alerts on controller-runtime's webhook metrics, summed per webhook over
 * every replica. With a 5m window:
 *
 * <pre>
 * WebhookErrorRatioHigh: sum by (webhook) (rate(controller_runtime_webhook_requests_total{code!~"2.."}[5m]))
 *                          / sum by (webhook) (rate(controller_runtime_webhook_requests_total[5m])) &gt; 0.05
 * WebhookLatencyHigh:    histogram_quantile(0.99, sum by (webhook, le) (rate(controller_runtime_webhook_latency_seconds_bucket[5m]))) &gt; 1
 * WebhookPanics:         admission plus conversion panics over the window &gt; 0
 * </pre>
 */
public final class WebhookRules {

	/**
	 * Share of requests answered with a non-2xx code above which the errors alert fires.
	 */
	public static final double ERROR_RATIO = 0.05;

	/** p99 latency in seconds above which the latency alert fires. */
	public static final double LATENCY_SECONDS = 1;

	private static final String REQUESTS = "controller_runtime_webhook_requests_total";

	private static final String LATENCY = "controller_runtime_webhook_latency_seconds";

	private static final String IN_FLIGHT = "controller_runtime_webhook_requests_in_flight";

	private static final String PANICS = "controller_runtime_webhook_panics_total";

	private static final String CONVERSION_PANICS = "controller_runtime_conversion_webhook_panics_total";

	/** The families the errors alert and error-ratio panel read. */
	public static final List<String> ERRORS_READ = List.of(REQUESTS);

	/** The family the latency alert and p99 panel read. */
	public static final List<String> LATENCY_READ = List.of(LATENCY);

	/** The families the panics alert and panel read. */
	public static final List<String> PANICS_READ = List.of(PANICS, CONVERSION_PANICS);

	/** The family the in-flight panel reads. */
	public static final List<String> IN_FLIGHT_READ = List.of(IN_FLIGHT);

	private WebhookRules() {
	}

	/**
	 * The in-flight requests of each webhook, summed over the replicas.
	 * @param matchers further label matchers, or empty
	 * @return the PromQL
	 */
	public static String inFlight(String matchers) {
		String selector = matchers.isEmpty() ? "" : "{" + matchers + "}";
		return "sum by (webhook) (" + IN_FLIGHT + selector + ")";
	}

	/**
	 * Requests per second of each webhook by code, summed over the replicas.
	 * @param window the rate window
	 * @param matchers further label matchers, or empty
	 * @return the PromQL
	 */
	public static String requestsByCode(String window, String matchers) {
		String selector = matchers.isEmpty() ? "" : "{" + matchers + "}";
		return "sum by (webhook, code) (rate(" + REQUESTS + selector + "[" + window + "]))";
	}

	/**
	 * Share of each webhook's requests answered with a code other than 2xx.
	 * @param window the rate window
	 * @param matchers further label matchers, such as {@code job=~"$job"}, or empty
	 * @return the PromQL
	 */
	public static String errorRatio(String window, String matchers) {
		String more = matchers.isEmpty() ? "" : matchers + ", ";
		String all = matchers.isEmpty() ? "" : "{" + matchers + "}";
		return "sum by (webhook) (rate(" + REQUESTS + "{" + more + "code!~\"2..\"}[" + window
				+ "])) / sum by (webhook) (rate(" + REQUESTS + all + "[" + window + "]))";
	}

	/**
	 * The 99th percentile of each webhook's latency, from the classic buckets.
	 * @param window the rate window
	 * @param matchers further label matchers, or empty
	 * @return the PromQL
	 */
	public static String p99(String window, String matchers) {
		String selector = matchers.isEmpty() ? "" : "{" + matchers + "}";
		return "histogram_quantile(0.99, sum by (webhook, le) (rate(" + LATENCY + "_bucket" + selector + "[" + window
				+ "])))";
	}

	/**
	 * Admission and conversion panics over the window, either counter missing counting as
	 * none.
	 * @param window the range
	 * @param matchers further label matchers, or empty
	 * @return the PromQL
	 */
	public static String panics(String window, String matchers) {
		String selector = matchers.isEmpty() ? "" : "{" + matchers + "}";
		return "(sum(increase(" + PANICS + selector + "[" + window + "])) or vector(0)) + (sum(increase("
				+ CONVERSION_PANICS + selector + "[" + window + "])) or vector(0))";
	}

	/**
	 * Adds the alerts switched on.
	 * @param window the rate window
	 * @param settings the alerts
	 * @param alerts where alerts go
	 */
	public static void add(String window, WebhookRuleSettings settings, List<AlertRule> alerts) {
		ResourceStateRuleSettings.Alert errors = settings.errors();
		if (errors != null) {
			alerts.add(new AlertRule("WebhookErrorRatioHigh", errorRatio(window, "") + " > " + ERROR_RATIO,
					errors.forDuration(), errors.severity().toString(),
					"More than 5% of requests to webhook {{ $labels.webhook }} are answered with an error code",
					"{{ $value | humanizePercentage }} of its requests got a non-2xx answer over the last " + window
							+ ".",
					null, null, null));
		}
		ResourceStateRuleSettings.Alert latency = settings.latency();
		if (latency != null) {
			alerts.add(new AlertRule("WebhookLatencyHigh", p99(window, "") + " > " + (int) LATENCY_SECONDS,
					latency.forDuration(), latency.severity().toString(),
					"p99 latency of webhook {{ $labels.webhook }} is above 1s",
					"The 99th percentile of its latency is {{ $value | humanizeDuration }}; the API server's "
							+ "default webhook timeout is 10s.",
					null, null, null));
		}
		ResourceStateRuleSettings.Alert panics = settings.panics();
		if (panics != null) {
			alerts.add(new AlertRule("WebhookPanics", panics(window, "") + " > 0", panics.forDuration(),
					panics.severity().toString(), "A webhook handler threw",
					"{{ $value }} admission and conversion webhook panics over the last " + window + ".", null, null,
					null));
		}
	}

}
