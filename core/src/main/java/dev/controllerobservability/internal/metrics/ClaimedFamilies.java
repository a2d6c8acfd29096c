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
import dev.controllerobservability.internal.settings.SettingNames;

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
 * ClaimedFamilies claimed = new ClaimedFamilies(SettingNames.BUILDER);
 * registry.config().meterFilter(new ControllerMeterFilter(NamingPolicy.builder("karpenter").build(), claimed));
 * claimed.claim(List.of("karpenter_bind_duration_seconds"), "the duration histogram of operation 'bind'");
 * registry.timer("karpenter.bind.duration"); // denied: a no-op timer
 * }</pre>
 */
public final class ClaimedFamilies {

	private static final Logger logger = LoggerFactory.getLogger(ClaimedFamilies.class);

	/** Claims by family name. */
	private final Map<String, Claim> owners = new HashMap<>();

	/** Families of the Micrometer meters the filter let through. */
	private final Set<String> micrometerFamilies = new HashSet<>();

	private volatile @Nullable RecordingFailures failures;

	private final SettingNames settingNames;

	/**
	 * Creates the claims.
	 * @param settingNames how messages name the setting that chose the backend
	 */
	public ClaimedFamilies(SettingNames settingNames) {
		this.settingNames = settingNames;
	}

	/**
	 * Remembers the families of meters registered before the meter filter was added, so
	 * that they are not claimed: the filter never saw them.
	 * @param meters the registry's meters
	 */
	public synchronized void seen(Iterable<Meter> meters) {
		for (Meter meter : meters) {
			clash(meter.getId());
		}
	}

	/**
	 * Why a family is not registered: a Micrometer meter holds one of its names.
	 * @param owner what would have registered it, such as {@code operation 'bind'}
	 * @param family the family's name
	 * @return the failure to record for each call that goes unrecorded
	 */
	public IllegalStateException taken(String owner, String family) {
		return taken(owner, family, this.settingNames.micrometerBackend());
	}

	/**
	 * Why a family is not registered: a Micrometer meter holds one of its names.
	 * @param owner what would have registered it, such as {@code histogram 'ratio'}
	 * @param family the family's name
	 * @param alternative the other fix than renaming the meter, such as
	 * {@code rename the declared histogram}
	 * @return the failure to record for each call that goes unrecorded
	 */
	public IllegalStateException taken(String owner, String family, String alternative) {
		return new IllegalStateException(owner + " is not recorded: its family " + family
				+ " would take the name of a meter registered through Micrometer before it, and two metrics of one "
				+ "name would fail every scrape. Rename that meter, or " + alternative + ".");
	}

	/**
	 * Claims family names, unless a Micrometer meter took one of them already.
	 * @param families Prometheus family names, such as
	 * {@code karpenter_bind_duration_seconds}
	 * @param owner what registers them, for the message of a refusal
	 * @return whether they are claimed
	 */
	public boolean claim(List<String> families, String owner) {
		return claim(families, owner, this.settingNames.micrometerBackend());
	}

	/**
	 * Claims family names, unless a Micrometer meter took one of them already.
	 * @param families Prometheus family names
	 * @param owner what registers them, for the message of a refusal
	 * @param alternative the other fix of a refused meter than renaming it, such as
	 * {@code rename the declared histogram}
	 * @return whether they are claimed
	 */
	public boolean claim(List<String> families, String owner, String alternative) {
		return claim(families, owner, alternative, Set.of());
	}

	/**
	 * Claims family names for meters of the registry itself, unless another Micrometer
	 * meter took one of them already: meters of the given names may take them, any other
	 * meter is denied.
	 * @param families Prometheus family names
	 * @param owner what registers them, for the message of a refusal
	 * @param alternative the other fix of a refused meter than renaming it
	 * @param meterNames the names of the meters that are the owner's own, such as the
	 * declared metric {@code karpenter.nodes_launched}
	 * @return whether they are claimed
	 */
	public synchronized boolean claim(List<String> families, String owner, String alternative, Set<String> meterNames) {
		for (String family : families) {
			if (this.micrometerFamilies.contains(family)) {
				return false;
			}
		}
		families.forEach((family) -> this.owners.put(family, new Claim(owner, alternative, Set.copyOf(meterNames))));
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
		List<String> families = PrometheusNames.registryNames(id);
		for (String family : families) {
			Claim claim = this.owners.get(family);
			if (claim != null && !claim.meterNames().contains(id.getName())) {
				return family;
			}
		}
		this.micrometerFamilies.addAll(families);
		return null;
	}

	/**
	 * Why a meter is denied: it would take a claimed family's name.
	 * @param id the meter's id
	 * @param family the claimed family
	 * @return the failure to record
	 */
	IllegalStateException refusal(Meter.Id id, String family) {
		Claim claim;
		synchronized (this) {
			claim = this.owners.getOrDefault(family,
					new Claim("the starter", this.settingNames.micrometerBackend(), Set.of()));
		}
		// A gauge without a unit may be a time gauge: the registry adds _seconds after
		// the filters ran.
		boolean timeGauge = id.getType() == Meter.Type.GAUGE && !family.equals(PrometheusNames.familyName(id));
		String exposed = timeGauge ? family + " if it is a time gauge" : family;
		return new IllegalStateException("Meter '" + id.getName() + "' was not registered: it would be exposed as "
				+ exposed + ", which is " + claim.owner() + ", registered with the Prometheus registry directly; two "
				+ "metrics of one name would fail every scrape. Give the meter another name, or " + claim.alternative()
				+ ".");
	}

	/**
	 * Reports a meter denied for a clash with a claimed family.
	 * @param id the meter's id
	 * @param family the claimed family
	 */
	void refused(Meter.Id id, String family) {
		IllegalStateException refusal = refusal(id, family);
		RecordingFailures sink = this.failures;
		if (sink != null) {
			sink.record("registration of meter " + id.getName(), refusal);
		}
		else {
			logger.warn(refusal.getMessage());
		}
	}

	/**
	 * Who claimed a family, the other fix of a meter refused for it, and the meters of
	 * the owner's that may take it.
	 */
	private record Claim(String owner, String alternative, Set<String> meterNames) {
	}

}
