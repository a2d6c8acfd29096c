/**
 * A linter over what the application exposes: promtool's {@code check metrics} rules with
 * promtool's own problem texts, plus the controller's rules (namespace prefix, consistent
 * label keys, no unbounded label names).
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.lint;

import org.jspecify.annotations.NullMarked;
