/**
 * Auto-configuration of {@code /actuator/prometheus} on the core's shared scrape:
 * concurrent scrapes share one rendering, and a scrape larger than
 * {@code controller.observability.scrape.max-size} is refused and counted.
 */
@NullMarked
package dev.controllerobservability.autoconfigure.scrape;

import org.jspecify.annotations.NullMarked;
