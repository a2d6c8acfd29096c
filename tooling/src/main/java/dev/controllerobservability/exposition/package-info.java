/**
 * What an application really exposes: the Prometheus text format read back into metric
 * families, as Prometheus and promtool read it, for the linter, the reference docs and
 * the stable-metrics golden file.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.exposition;

import org.jspecify.annotations.NullMarked;
