/**
 * What an application really exposes, as metric families and samples: read from a
 * registry's snapshots as the Prometheus text format would show them, or from the text
 * format as Prometheus and promtool read it, for the linter, the reference docs, the
 * stable-metrics golden file and the test fixture's scrape reader.
 * <p>
 * This package depends on nothing but the JDK, JSpecify and the Prometheus metrics model.
 */
@NullMarked
package dev.controllerobservability.exposition;

import org.jspecify.annotations.NullMarked;
