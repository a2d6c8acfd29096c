/**
 * The Kubernetes standard metric names, labels and buckets that Go controllers get from
 * client-go and controller-runtime.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.kubernetes;

import org.jspecify.annotations.NullMarked;
