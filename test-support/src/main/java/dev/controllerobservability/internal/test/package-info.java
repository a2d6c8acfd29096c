/**
 * Checks the project's own builds run on their compiled classes, such as that no public
 * API names an internal type, and fixtures the tests of several modules share.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.test;

import org.jspecify.annotations.NullMarked;
