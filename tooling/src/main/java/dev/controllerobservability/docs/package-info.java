/**
 * Reference documentation generated from what the application really exposes, plus its
 * declared catalog: one table per stability level, as Markdown for people and JSON for
 * machines.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.docs;

import org.jspecify.annotations.NullMarked;
