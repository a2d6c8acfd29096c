/**
 * How rules are checked and rendered: the PromQL and alert-template scanners, the rule
 * validator, the placeholder resolver and the one YAML style of every manifest.
 * <p>
 * Not public API: anything under {@code dev.controllerobservability.internal} may change
 * in any release.
 */
@NullMarked
package dev.controllerobservability.internal.rules;

import org.jspecify.annotations.NullMarked;
