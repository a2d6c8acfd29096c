/**
 * The standard {@code process_*} metrics that Go controllers expose.
 */
@NullMarked
package dev.controllerobservability.kubernetes.process;

import org.jspecify.annotations.NullMarked;
