package dev.controllerobservability.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.bind.Name;

import dev.controllerobservability.kubernetes.client.RestClientMetric;
import dev.controllerobservability.rules.AlertSeverity;

/**
 * Kubernetes metrics under client-go's and controller-runtime's names.
 *
 * @param enabled Whether to count fabric8 client calls as rest_client_*, record Java
 * Operator SDK reconciliations as controller_runtime_* and workqueue_*, and expose
 * leader_election_master_status, when those libraries are present.
 * @param resourceState Per-object metrics of the resources Java Operator SDK controllers
 * reconcile: conditions, generations and creation time.
 * @param client The rest_client_* metrics of fabric8 clients.
 * @param webhooks Webhook metrics under controller-runtime's names.
 * @param leaderElection Alerts on leader_election_master_status.
 */
public record KubernetesProperties(@DefaultValue("true") boolean enabled, @DefaultValue ResourceState resourceState,
		@DefaultValue Client client, @DefaultValue Webhooks webhooks, @DefaultValue LeaderElection leaderElection) {

	/**
	 * Leader election of replicas.
	 *
	 * @param alerts Built-in alerts on leader_election_master_status.
	 */
	public record LeaderElection(@DefaultValue LeaderElectionAlerts alerts) {

	}

	/**
	 * The built-in leader-election alerts, per election over the replicas.
	 *
	 * @param enabled Whether to generate LeaderElectionNoLeader and
	 * LeaderElectionReconcilingWithoutLease: switch them on where the replicas elect a
	 * leader through LeaderElectionCallbacks, which expose leader_election_master_status
	 * from start-up.
	 * @param noLeader Alert when no replica has led an election over the last 5m.
	 * @param reconcilingWithoutLease Alert when a replica reconciles over the last 5m
	 * without having led in them.
	 */
	public record LeaderElectionAlerts(@DefaultValue("false") boolean enabled, @DefaultValue LeaderAlert noLeader,
			@DefaultValue LeaderAlert reconcilingWithoutLease) {

	}

	/**
	 * One leader-election alert.
	 *
	 * @param forDuration How long the condition must hold before the alert fires; the
	 * property is {@code for}.
	 * @param severity Severity: critical, warning or info.
	 */
	public record LeaderAlert(@Name("for") @DefaultValue("5m") String forDuration,
			@DefaultValue("WARNING") AlertSeverity severity) implements BuiltInAlert {

	}

	/**
	 * The rest_client_* metrics of fabric8 clients built through the
	 * KubernetesClientMetrics bean.
	 *
	 * @param metrics Opt-in families of controller-runtime's RegisterRESTClientMetrics to
	 * record besides rest_client_requests_total and rest_client_request_duration_seconds:
	 * request-size (rest_client_request_size_bytes), response-size
	 * (rest_client_response_size_bytes) and request-retries
	 * (rest_client_request_retries_total). None by default, as upstream.
	 */
	public record Client(@DefaultValue List<RestClientMetric> metrics) {

	}

	/**
	 * The webhooks whose requests are recorded, by path.
	 *
	 * @param admissionPaths Paths of validating and mutating webhooks answering
	 * AdmissionReviews, such as /validate-widgets; each is the webhook label, and a
	 * handler's exception counts in controller_runtime_webhook_panics_total.
	 * @param conversionPaths Paths of CRD conversion webhooks answering
	 * ConversionReviews, such as /convert; a handler's exception counts in
	 * controller_runtime_conversion_webhook_panics_total.
	 * @param alerts Built-in alerts on the webhook metrics.
	 */
	public record Webhooks(@DefaultValue List<String> admissionPaths, @DefaultValue List<String> conversionPaths,
			@DefaultValue WebhookAlerts alerts) {

	}

	/**
	 * The built-in webhook alerts, each summed per webhook over the replicas.
	 *
	 * @param enabled Whether to generate WebhookErrorRatioHigh, WebhookLatencyHigh and
	 * WebhookPanics. Defaults to whether admission-paths or conversion-paths lists a
	 * path.
	 * @param errors Alert when more than 5% of a webhook's requests get a non-2xx answer.
	 * @param latency Alert when the p99 latency of a webhook is above 1s.
	 * @param panics Alert when a webhook handler throws.
	 */
	public record WebhookAlerts(@Nullable Boolean enabled, @DefaultValue Alert errors, @DefaultValue Alert latency,
			@DefaultValue PanicAlert panics) {

	}

	/**
	 * The webhook panics alert.
	 *
	 * @param forDuration How long panics must go on before the alert fires; the property
	 * is {@code for}.
	 * @param severity Severity: critical, warning or info.
	 */
	public record PanicAlert(@Name("for") @DefaultValue("0m") String forDuration,
			@DefaultValue("WARNING") AlertSeverity severity) implements BuiltInAlert {

	}

	/**
	 * The resource state metrics and their alerts.
	 *
	 * @param enabled Whether to declare and record the namespace-prefixed
	 * resource_status_condition, _resource_generation, _resource_observed_generation and
	 * _resource_created_timestamp_seconds for each resource an operator reconciles.
	 * @param alerts Built-in alerts on the resource state metrics.
	 */
	public record ResourceState(@DefaultValue("false") boolean enabled, @DefaultValue Alerts alerts) {

	}

	/**
	 * The built-in resource state alerts.
	 *
	 * @param enabled Whether to generate ResourceNotReady and
	 * ResourceGenerationNotReconciled. Defaults to whether resource state is enabled.
	 * @param notReady Alert when a resource's Ready condition stays not True.
	 * @param generationNotReconciled Alert when a resource's generation stays above its
	 * observed generation.
	 */
	public record Alerts(@Nullable Boolean enabled, @DefaultValue Alert notReady,
			@DefaultValue Alert generationNotReconciled) {

	}

	/**
	 * One resource state alert.
	 *
	 * @param forDuration How long the condition must hold before the alert fires; the
	 * property is {@code for}.
	 * @param severity Severity: critical, warning or info.
	 */
	public record Alert(@Name("for") @DefaultValue("15m") String forDuration,
			@DefaultValue("WARNING") AlertSeverity severity) implements BuiltInAlert {

	}

	/**
	 * What every built-in alert's properties give: its {@code for} and its severity.
	 */
	interface BuiltInAlert {

		/**
		 * How long the condition must hold before the alert fires.
		 * @return a Prometheus duration
		 */
		String forDuration();

		/**
		 * The alert's severity.
		 * @return the severity
		 */
		AlertSeverity severity();

	}

}
