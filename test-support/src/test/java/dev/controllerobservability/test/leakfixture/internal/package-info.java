/**
 * An internal type for {@code InternalTypeLeaksTests}.
 */
@NullMarked
package dev.controllerobservability.test.leakfixture.internal;

import org.jspecify.annotations.NullMarked;
