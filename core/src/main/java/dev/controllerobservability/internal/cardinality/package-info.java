/**
 * Label cardinality defence: allow-lists, a cap on distinct values per metric and label,
 * and truncation of long values, so that one unbounded label cannot grow a controller's
 * series without limit.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.cardinality;

import org.jspecify.annotations.NullMarked;
