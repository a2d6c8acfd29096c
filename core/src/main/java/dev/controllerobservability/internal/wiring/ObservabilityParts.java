package dev.controllerobservability.internal.wiring;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.RecordingFailures;
import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.internal.cardinality.CardinalityLimiter;
import dev.controllerobservability.internal.catalog.CatalogHistograms;
import dev.controllerobservability.internal.catalog.MetricCatalog;
import dev.controllerobservability.internal.catalog.PrometheusCollectorRefresh;
import dev.controllerobservability.catalog.MetricDefinition;
import dev.controllerobservability.internal.metrics.ClaimedFamilies;
import dev.controllerobservability.internal.metrics.PrometheusNames;
import dev.controllerobservability.internal.metrics.NamingPolicy;
import dev.controllerobservability.internal.operations.OperationRecorder;
import dev.controllerobservability.internal.settings.CheckedSettings;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.scrape.ScrapeErrors;

/**
 * Makes each part of Controller Observability from {@link CheckedSettings}. The core
 * builder calls every method in turn; the Spring Boot auto-configuration calls each from
 * the {@code @Bean} method of that part, so that a user's bean can replace any one of
 * them. No part is wired anywhere else.
 */
public final class ObservabilityParts {

	private ObservabilityParts() {
	}

	/**
	 * The naming policy of controller metrics.
	 * @param settings the settings
	 * @param registryTags tags the registry gives every meter through filters of its own
	 * (Spring Boot's {@code management.metrics.tags}), empty for none
	 * @return the policy
	 */
	public static NamingPolicy naming(CheckedSettings settings, Map<String, String> registryTags) {
		return NamingPolicy.builder(settings.namespace())
			.commonTags(settings.commonTags())
			.registryTags(registryTags)
			.durationBuckets(settings.durationBuckets())
			.meterPrefixes(settings.meterPrefixes())
			.disabledMetrics(settings.disabledMetrics())
			.build();
	}

	/**
	 * Where failures to record go.
	 * @param registry the registry of {@code <namespace>_observability_errors_total}
	 * @param settings the settings
	 * @return the recording failures
	 */
	public static RecordingFailures failures(MeterRegistry registry, CheckedSettings settings) {
		return new RecordingFailures(registry, settings.namespace(), settings.errorLogInterval());
	}

	/**
	 * Where refused scrapes are counted.
	 * @param registry the registry of
	 * {@code <namespace>_observability_scrape_errors_total}
	 * @param settings the settings
	 * @return the scrape errors
	 */
	public static ScrapeErrors scrapeErrors(MeterRegistry registry, CheckedSettings settings) {
		return ScrapeErrors.register(registry, settings.namespace());
	}

	/**
	 * The cardinality limits of every controller metric.
	 * @param registry the registry of the limiter's counters
	 * @param settings the settings
	 * @return the limiter
	 */
	public static CardinalityLimiter limiter(MeterRegistry registry, CheckedSettings settings) {
		return CardinalityLimiter.builder(registry, settings.namespace())
			.allowLists(settings.labelAllowList())
			.maxLabelValues(settings.maxLabelValues())
			.maxLabelValueLength(settings.maxLabelValueLength())
			.maxSeriesPerMetric(settings.maxSeriesPerMetric())
			.settingNames(settings.settingNames())
			.build();
	}

	/**
	 * The declared metrics, recorded by name.
	 * @param registry the registry
	 * @param catalog the checked catalog
	 * @param settings the settings
	 * @param limiter the cardinality limits
	 * @param failures where failures to record go
	 * @param naming the constant labels of the exact histograms
	 * @param claimed where the exact histograms claim their names from Micrometer meters
	 * @return the metrics, whose histograms are exact on a
	 * {@code PrometheusMeterRegistry}
	 */
	public static ControllerMetrics metrics(MeterRegistry registry, MetricCatalog catalog, CheckedSettings settings,
			CardinalityLimiter limiter, RecordingFailures failures, NamingPolicy naming, ClaimedFamilies claimed) {
		claimCatalog(catalog, claimed, failures);
		ControllerMetrics metrics = new ControllerMetrics(registry, catalog, settings.stability(), limiter, failures,
				CatalogHistograms.of(registry, naming, claimed), settings.durationBuckets(), settings.settingNames());
		PrometheusCollectorRefresh.registerWith(registry, metrics);
		return metrics;
	}

	/**
	 * Claims the family names of every declared metric, and of the old name of a renamed
	 * one, for the catalog's own meters: the meter filter then denies any other meter
	 * that would be exposed under one of them (a meter of one's own under a meter prefix,
	 * the in-flight gauge of an undeclared operation), which Micrometer would otherwise
	 * mix into the declared metric's family without a word.
	 */
	private static void claimCatalog(MetricCatalog catalog, ClaimedFamilies claimed, RecordingFailures failures) {
		for (MetricDefinition definition : catalog.definitions()) {
			Meter.Type type = switch (definition.type()) {
				case COUNTER -> Meter.Type.COUNTER;
				case HISTOGRAM, SUMMARY -> Meter.Type.DISTRIBUTION_SUMMARY;
				default -> Meter.Type.GAUGE;
			};
			List<String> names = (definition.replaces() != null) ? List.of(definition.name(), definition.replaces())
					: List.of(definition.name());
			Set<String> meterNames = new HashSet<>();
			List<String> families = new ArrayList<>();
			for (String name : names) {
				String meterName = catalog.meterName(name, definition.type());
				meterNames.add(meterName);
				families.addAll(PrometheusNames
					.registryNames(new Meter.Id(meterName, Tags.empty(), definition.unit(), null, type)));
			}
			String exposed = catalog.exposedName(definition.name());
			if (!claimed.claim(families, "the declared metric " + exposed, "rename the declared metric", meterNames)) {
				failures.record("registration of " + definition.name(),
						claimed.taken("Metric " + exposed, exposed, "rename the declared metric"));
			}
		}
	}

	/**
	 * Operation timing.
	 * @param observations the observation registry operations go through
	 * @param failures where failures to record go
	 * @param settings the settings
	 * @param limiter the cardinality limits
	 * @param handler the starter's observation handler, whose durations decide the
	 * families an operation exposes, or {@code null} when there is none (a user's own)
	 * @param directPredicates the observation registry's predicates when operations may
	 * record straight into the handler's series (no handler but the starter's would see
	 * them), or {@code null} to record through observations
	 * @return the operations
	 */
	public static ControllerOperations operations(ObservationRegistry observations, RecordingFailures failures,
			CheckedSettings settings, CardinalityLimiter limiter, @Nullable OperationRecorder handler,
			@Nullable List<ObservationPredicate> directPredicates) {
		ControllerOperations.Builder operations = ControllerOperations.builder(observations, failures)
			.namespace(settings.namespace())
			.labelKeys(settings.operationTags())
			.maxOperations(settings.maxOperations())
			.cardinalityLimiter(limiter)
			.settingNames(settings.settingNames());
		settings.operationDefinitions().forEach(operations::definition);
		if (handler != null) {
			operations.durations(handler.durations());
			if (directPredicates != null) {
				operations.directRecording(handler, directPredicates);
			}
		}
		return operations.build();
	}

}
