/**
 * What an application really exposes: the Prometheus text format read back into metric
 * families and samples, as Prometheus and promtool read it, for the linter, the reference
 * docs, the stable-metrics golden file and the test fixture's scrape reader.
 * <p>
 * This package depends on nothing but the JDK and JSpecify.
 */
@NullMarked
package dev.controllerobservability.exposition;

import org.jspecify.annotations.NullMarked;
