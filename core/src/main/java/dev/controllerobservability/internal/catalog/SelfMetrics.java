package dev.controllerobservability.internal.catalog;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.controllerobservability.internal.metrics.SelfCounters;
import dev.controllerobservability.stability.StabilityLevel;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.internal.stability.Visibility;

/**
 * component-base's stability self-metrics:
 * {@code registered_metrics_total{stability_level, deprecated_version}},
 * {@code disabled_metrics_total} and {@code hidden_metrics_total}, in the controller's
 * namespace.
 */
public final class SelfMetrics {

	private final MeterRegistry registry;

	private final String namespace;

	private final Counter disabled;

	private final Counter hidden;

	public SelfMetrics(MeterRegistry registry, String namespace) {
		this.registry = registry;
		this.namespace = namespace;
		this.disabled = SelfCounters.register(registry, namespace + ".disabled_metrics",
				"The count of disabled metrics.");
		this.hidden = SelfCounters.register(registry, namespace + ".hidden_metrics", "The count of hidden metrics.");
	}

	public void count(StabilityLevel level, Visibility visibility, Version deprecatedVersion) {
		switch (visibility) {
			case DISABLED -> SelfCounters.increment(this.disabled);
			case HIDDEN -> SelfCounters.increment(this.hidden);
			default -> registered(level, (visibility == Visibility.DEPRECATED) ? deprecatedVersion : null);
		}
	}

	private void registered(StabilityLevel level, Version deprecatedVersion) {
		try {
			Counter.builder(this.namespace + ".registered_metrics")
				.description("The count of registered metrics broken by stability level and deprecation version.")
				.tag("stability_level", level.name())
				.tag("deprecated_version", (deprecatedVersion != null) ? deprecatedVersion.toString() : "")
				.register(this.registry)
				.increment();
		}
		catch (RuntimeException ex) {
			// The registry refuses the starter's meters; the catalog works without the
			// count.
		}
	}

}
