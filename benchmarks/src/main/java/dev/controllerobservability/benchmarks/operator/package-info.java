/**
 * A Java Operator SDK controller written without the starter, started with and without
 * the starter's auto-configurations for the start-up comparison.
 */
@NullMarked
package dev.controllerobservability.benchmarks.operator;

import org.jspecify.annotations.NullMarked;
