/**
 * Label cardinality defence: allow-lists, a cap on distinct values per metric and label,
 * and truncation of long values, so that one unbounded label cannot grow a controller's
 * series without limit.
 * <p>
 * This package does not depend on Spring.
 */
package dev.controllerobservability.cardinality;
