package dev.controllerobservability.autoconfigure;

import java.util.Collection;

/**
 * Names of metric families the starter registers straight with the
 * {@code PrometheusRegistry}, past Micrometer, so that the checks of
 * {@code disabled-metrics} know them although no meter of that name exists.
 */
@FunctionalInterface
public interface DirectPrometheusFamilies {

	/**
	 * The families' Prometheus names.
	 * @return the names, such as {@code controller_runtime_reconcile_time_seconds}
	 */
	Collection<String> names();

}
