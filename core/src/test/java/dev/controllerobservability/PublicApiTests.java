package dev.controllerobservability;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.internal.test.InternalTypeLeaks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the public API of this module free of internal types, which may change in any
 * release.
 */
class PublicApiTests {

	private static final String REASON = "the constructor and builder members the auto-configuration and ControllerObservability wire the core with, and the format the scrape endpoint negotiated";

	@Test
	void namesNoInternalTypeButTheKnownOnes() {
		assertThat(InternalTypeLeaks.in(Path.of("target/classes"))).as(REASON)
			.containsExactlyInAnyOrder(
					"dev.controllerobservability.catalog.ControllerMetrics#<init> mentions dev.controllerobservability.internal.cardinality.CardinalityLimiter",
					"dev.controllerobservability.catalog.ControllerMetrics#<init> mentions dev.controllerobservability.internal.catalog.MetricCatalog",
					"dev.controllerobservability.catalog.ControllerMetrics#<init> mentions dev.controllerobservability.internal.stability.StabilityPolicy",
					"dev.controllerobservability.catalog.ControllerMetrics#<init> mentions dev.controllerobservability.internal.settings.SettingNames",
					"dev.controllerobservability.catalog.ControllerMetrics#<init> mentions dev.controllerobservability.internal.catalog.CatalogHistograms",
					"dev.controllerobservability.operations.ControllerOperations$Builder#settingNames mentions dev.controllerobservability.internal.settings.SettingNames",
					"dev.controllerobservability.operations.ControllerOperations$Builder#cardinalityLimiter mentions dev.controllerobservability.internal.cardinality.CardinalityLimiter",
					"dev.controllerobservability.operations.ControllerOperations$Builder#directRecording mentions dev.controllerobservability.internal.operations.OperationRecorder",
					"dev.controllerobservability.operations.ControllerOperations$Builder#durations mentions dev.controllerobservability.internal.operations.OperationDurations",
					"dev.controllerobservability.scrape.SharedScrape#scrape mentions dev.controllerobservability.internal.metrics.ScrapeFormat",
					"dev.controllerobservability.scrape.SharedScrape$Builder#settingNames mentions dev.controllerobservability.internal.settings.SettingNames");
	}

}
