/**
 * The metric stability contract of Kubernetes component-base: stability levels, help text
 * annotations, and when a deprecated metric is hidden or shown again.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.stability;

import org.jspecify.annotations.NullMarked;
