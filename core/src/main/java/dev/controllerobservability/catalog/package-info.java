/**
 * The declarative metric catalog: metrics declared once (in {@code application.yaml} or
 * as {@link dev.controllerobservability.catalog.MetricDefinition} beans) with help,
 * labels, buckets and stability, registered at start-up, and recorded by name through
 * {@link dev.controllerobservability.catalog.ControllerMetrics}.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.catalog;

import org.jspecify.annotations.NullMarked;
