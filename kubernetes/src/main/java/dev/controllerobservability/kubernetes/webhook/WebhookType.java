package dev.controllerobservability.kubernetes.webhook;

/**
 * What a webhook does, which decides the panic counter its handler's exceptions go to, as
 * controller-runtime counts them.
 */
public enum WebhookType {

	/**
	 * A validating or mutating webhook answering {@code AdmissionReview}s: panics count
	 * in {@code controller_runtime_webhook_panics_total}.
	 */
	ADMISSION,

	/**
	 * A CRD conversion webhook answering {@code ConversionReview}s: panics count in
	 * {@code controller_runtime_conversion_webhook_panics_total}.
	 */
	CONVERSION

}
