/**
 * Test support for controllers that use Controller Observability: a real Prometheus
 * server that scrapes the application under test and answers PromQL queries.
 */
package dev.controllerobservability.test;
