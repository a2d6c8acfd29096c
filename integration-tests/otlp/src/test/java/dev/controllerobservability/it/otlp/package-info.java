/**
 * Operation metrics exported over OTLP.
 */
@NullMarked
package dev.controllerobservability.it.otlp;

import org.jspecify.annotations.NullMarked;
