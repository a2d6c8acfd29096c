package dev.controllerobservability.internal.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers and increments the starter's own counters (errors, cardinality enforcement,
 * stability) so that a registry or meter filter that fails on them never stops the
 * application nor reaches a caller: the counter is then missing from the scrape, which is
 * logged once, and what it guards keeps working. Example:
 *
 * <pre>{@code
 * Counter overflows = SelfCounters.register(registry, "karpenter.series_overflows", "Number of ...");
 * SelfCounters.increment(overflows); // a no-op when registration failed
 * }</pre>
 */
public final class SelfCounters {

	private static final Logger logger = LoggerFactory.getLogger(SelfCounters.class);

	private SelfCounters() {
	}

	/**
	 * Registers a counter, pre-set to 0.
	 * @param registry where it goes
	 * @param name dotted meter name, such as {@code karpenter.observability.errors}
	 * @param description its help text
	 * @return the counter, or {@code null} when the registry refused it
	 */
	public static Counter register(MeterRegistry registry, String name, String description) {
		return register(registry, name, description, Tags.empty());
	}

	/**
	 * Registers a counter with tags, pre-set to 0.
	 * @param registry where it goes
	 * @param name dotted meter name, such as
	 * {@code karpenter.observability.scrape.errors}
	 * @param description its help text
	 * @param tags its tags, such as {@code reason=too_large}
	 * @return the counter, or {@code null} when the registry refused it
	 */
	public static Counter register(MeterRegistry registry, String name, String description, Tags tags) {
		try {
			return Counter.builder(name).description(description).tags(tags).register(registry);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not register the self-metric {}; what it counts keeps working, uncounted", name, ex);
			return null;
		}
	}

	/**
	 * Adds one, if the counter exists; never throws.
	 * @param counter a counter from {@link #register}, or {@code null}
	 * @return whether the counter was incremented
	 */
	public static boolean increment(Counter counter) {
		if (counter == null) {
			return false;
		}
		try {
			counter.increment();
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
