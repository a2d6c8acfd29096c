/**
 * A Grafana dashboard generated from the operations and the catalog, so every timed
 * operation and declared metric has a panel without anyone drawing it.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.dashboard;

import org.jspecify.annotations.NullMarked;
