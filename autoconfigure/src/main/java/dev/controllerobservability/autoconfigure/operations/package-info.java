/**
 * Operation auto-configuration: the advisor that records methods annotated with
 * {@code @ObservedOperation}.
 */
@NullMarked
package dev.controllerobservability.autoconfigure.operations;

import org.jspecify.annotations.NullMarked;
