/**
 * The demo as a Java Operator SDK operator on a real or mock Kubernetes API server.
 */
@NullMarked
package dev.controllerobservability.demo.kubernetes;

import org.jspecify.annotations.NullMarked;
