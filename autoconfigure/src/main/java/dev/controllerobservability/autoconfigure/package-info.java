/**
 * Spring Boot auto-configuration of Controller Observability: binds
 * {@code controller.observability.*}, validates it with failure analyses that name the
 * property and the fix, and wires the core packages to Boot's meter and observation
 * registries.
 */
@NullMarked
package dev.controllerobservability.autoconfigure;

import org.jspecify.annotations.NullMarked;
