/**
 * Alert and recording rules as code: declared rules and built-in operation rules, checked
 * as KubeVirt checks them, rendered as a Prometheus rules file and as a
 * {@code monitoring.coreos.com/v1} {@code PrometheusRule}; and the {@code ServiceMonitor}
 * and {@code PodMonitor} that have Prometheus scrape the controller.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.rules;

import org.jspecify.annotations.NullMarked;
