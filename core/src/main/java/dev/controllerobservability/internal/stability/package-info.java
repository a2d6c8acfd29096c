/**
 * Kubernetes component-base's stability rules: help-text annotations, the deprecation
 * schedule that hides metrics, and controller versions.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.stability;

import org.jspecify.annotations.NullMarked;
