/**
 * client-go's {@code rest_client_*} metrics for fabric8 Kubernetes clients.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.kubernetes.client;

import org.jspecify.annotations.NullMarked;
