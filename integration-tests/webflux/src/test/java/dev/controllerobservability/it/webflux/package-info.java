/**
 * An application on Spring WebFlux that uses the starter.
 */
@NullMarked
package dev.controllerobservability.it.webflux;

import org.jspecify.annotations.NullMarked;
