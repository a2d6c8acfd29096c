/**
 * Configuration strictness: the checks that refuse a {@code controller.observability.*}
 * name or value Spring Boot's binder would let pass silently in any property source, the
 * switches read strictly, and the failure analyses that name the property, the value, its
 * origin and the fix.
 */
@NullMarked
package dev.controllerobservability.autoconfigure.strictness;

import org.jspecify.annotations.NullMarked;
