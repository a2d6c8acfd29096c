/**
 * controller-runtime's {@code controller_runtime_*} and {@code workqueue_*} metrics for
 * Java Operator SDK operators.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.kubernetes.operator;

import org.jspecify.annotations.NullMarked;
