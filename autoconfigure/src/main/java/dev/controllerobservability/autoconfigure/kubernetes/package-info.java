/**
 * Kubernetes auto-configuration: process, client, leader election and operator metrics,
 * each behind its library.
 */
@NullMarked
package dev.controllerobservability.autoconfigure.kubernetes;

import org.jspecify.annotations.NullMarked;
