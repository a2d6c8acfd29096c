/**
 * controller-runtime's {@code controller_runtime_webhook_*} metrics for admission and
 * conversion webhooks served by a Java controller.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.kubernetes.webhook;

import org.jspecify.annotations.NullMarked;
