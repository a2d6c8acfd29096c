package dev.controllerobservability.scrape;

import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.internal.metrics.SelfCounters;

/**
 * Counts scrapes that were refused instead of served, in
 * {@code <namespace>_observability_scrape_errors_total{reason="too_large"}}: one per
 * refused rendering, however many requests shared it. Get it from
 * {@link dev.controllerobservability.ControllerObservability#scrapeErrors()} (or the
 * Spring bean) and give it to {@link SharedScrape#builder}. Example:
 *
 * <pre>{@code
 * SharedScrape scrape = SharedScrape.builder(registry.getPrometheusRegistry(), observability.scrapeErrors())
 *     .build();
 * long refused = observability.scrapeErrors().tooLarge();
 * }</pre>
 */
public final class ScrapeErrors {

	private final @Nullable Counter tooLargeCounter;

	private final AtomicLong tooLarge = new AtomicLong();

	private ScrapeErrors(@Nullable Counter tooLargeCounter) {
		this.tooLargeCounter = tooLargeCounter;
	}

	/**
	 * Registers the counter, pre-set to 0, with the meter registry of the controller's
	 * own metrics.
	 * @param registry the registry of
	 * {@code <namespace>_observability_scrape_errors_total}
	 * @param namespace the controller's namespace
	 * @return the scrape errors
	 */
	public static ScrapeErrors register(MeterRegistry registry, String namespace) {
		return new ScrapeErrors(SelfCounters.register(registry, namespace + ".observability.scrape.errors",
				"Number of scrapes refused instead of served, by reason; too_large: the scrape passed its maximum "
						+ "size.",
				Tags.of(MetricConventions.REASON_LABEL, MetricConventions.TOO_LARGE)));
	}

	/**
	 * Number of renderings refused for passing their maximum size since start, whether or
	 * not the counter could be incremented.
	 * @return the count
	 */
	public long tooLarge() {
		return this.tooLarge.get();
	}

	void countTooLarge() {
		this.tooLarge.incrementAndGet();
		SelfCounters.increment(this.tooLargeCounter);
	}

}
