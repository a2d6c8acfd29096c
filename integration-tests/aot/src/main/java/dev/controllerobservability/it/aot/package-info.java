/**
 * An application that uses the starter, built with Spring AOT.
 */
@NullMarked
package dev.controllerobservability.it.aot;

import org.jspecify.annotations.NullMarked;
