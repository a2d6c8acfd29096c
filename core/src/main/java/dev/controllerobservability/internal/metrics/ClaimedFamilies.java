package dev.controllerobservability.internal.metrics;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Meter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.controllerobservability.RecordingFailures;

/**
 * The Prometheus families the starter registers straight with the application's
 * {@code PrometheusRegistry} rather than through Micrometer (the operation histograms of
 * the {@code prometheus} backend), which no Micrometer meter may take: two metrics of one
 * name make every scrape fail ({@code duplicate metric name}).
 * {@link ControllerMeterFilter} denies such a meter, and each refusal is counted in
 * {@code <namespace>_observability_errors_total} and logged at a limited rate, so that
 * the scrape keeps serving every other family. The other way round, a family whose name a
 * Micrometer meter took first is not claimed, and its owner does not register it.
 * Example:
 *
 * <pre>{@code
 * ClaimedFamilies claimed = new ClaimedFamilies();
 * registry.config().meterFilter(ControllerMeterFilter.builder("karpenter").claimedFamilies(claimed).build());
 * claimed.claim(List.of("karpenter_bind_duration_seconds"), "the duration histogram of operation 'bind'");
 * registry.timer("karpenter.bind.duration"); // denied: a no-op timer
 * }</pre>
 */
public final class ClaimedFamilies {

	private static final Logger logger = LoggerFactory.getLogger(ClaimedFamilies.class);

	/** Owners by family name. */
	private final Map<String, String> owners = new HashMap<>();

	/** Families of the Micrometer meters the filter let through. */
	private final Set<String> micrometerFamilies = new HashSet<>();

	private volatile @Nullable RecordingFailures failures;

	/**
	 * Claims family names, unless a Micrometer meter took one of them already.
	 * @param families Prometheus family names, such as
	 * {@code karpenter_bind_duration_seconds}
	 * @param owner what registers them, for the message of a refusal
	 * @return whether they are claimed
	 */
	public synchronized boolean claim(List<String> families, String owner) {
		for (String family : families) {
			if (this.micrometerFamilies.contains(family)) {
				return false;
			}
		}
		families.forEach((family) -> this.owners.put(family, owner));
		return true;
	}

	/**
	 * Gives up family names claimed before.
	 * @param families Prometheus family names
	 */
	public synchronized void release(List<String> families) {
		families.forEach(this.owners::remove);
	}

	/**
	 * Sets where refusals are counted; until then they are only logged.
	 * @param failures the recording failures of the application
	 */
	public void reportTo(RecordingFailures failures) {
		this.failures = failures;
	}

	/**
	 * The claim a Micrometer meter would clash with, if any; a meter without one is
	 * remembered, so that its families are not claimed later.
	 * @param id the meter's id, as mapped
	 * @return the claimed family it would expose, or {@code null}
	 */
	synchronized @Nullable String clash(Meter.Id id) {
		String family = PrometheusNames.familyName(id);
		// Timers and distribution summaries also expose a "_max" gauge.
		boolean hasMax = id.getType() == Meter.Type.TIMER || id.getType() == Meter.Type.DISTRIBUTION_SUMMARY;
		if (this.owners.containsKey(family)) {
			return family;
		}
		if (hasMax && this.owners.containsKey(family + "_max")) {
			return family + "_max";
		}
		this.micrometerFamilies.add(family);
		if (hasMax) {
			this.micrometerFamilies.add(family + "_max");
		}
		return null;
	}

	/**
	 * Reports a meter denied for a clash with a claimed family.
	 * @param id the meter's id
	 * @param family the claimed family
	 */
	void refused(Meter.Id id, String family) {
		String owner;
		synchronized (this) {
			owner = this.owners.getOrDefault(family, "the starter");
		}
		IllegalStateException refusal = new IllegalStateException("Meter '" + id.getName()
				+ "' was not registered: it would be exposed as " + family + ", which is " + owner
				+ ", registered with the Prometheus registry directly "
				+ "(controller.observability.operations.backend=prometheus); two metrics of one name would fail "
				+ "every scrape. Give the meter another name, or set "
				+ "controller.observability.operations.backend=micrometer.");
		RecordingFailures sink = this.failures;
		if (sink != null) {
			sink.record("registration of meter " + id.getName(), refusal);
		}
		else {
			logger.warn(refusal.getMessage());
		}
	}

}
