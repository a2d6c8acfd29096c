/**
 * Public API that leaks an internal type, for {@code InternalTypeLeaksTests}.
 */
@NullMarked
package dev.controllerobservability.test.leakfixture;

import org.jspecify.annotations.NullMarked;
