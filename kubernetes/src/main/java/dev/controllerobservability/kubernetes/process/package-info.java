/**
 * The standard {@code process_*} metrics that Go controllers expose.
 */
package dev.controllerobservability.kubernetes.process;
