/**
 * Test support for controllers that use Controller Observability: a real Prometheus
 * server that scrapes the application under test and answers PromQL queries.
 */
@NullMarked
package dev.controllerobservability.test;

import org.jspecify.annotations.NullMarked;
