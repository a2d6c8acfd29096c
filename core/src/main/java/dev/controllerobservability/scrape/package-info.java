/**
 * The scrape, served without holding the heap hostage:
 * {@link dev.controllerobservability.scrape.SharedScrape} renders a registry's scrape
 * into fixed-size chunks, lets concurrent requests for the same scrape share the
 * rendering in progress, and refuses a rendering that passes its maximum size;
 * {@link dev.controllerobservability.scrape.ScrapeHandler} serves it with the JDK's HTTP
 * server. The Spring Boot scrape endpoint serves the same shared scrape.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.scrape;

import org.jspecify.annotations.NullMarked;
