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

	private static final String REASON = "an operation description the dashboard reads, until core publishes one (issue 15)";

	@Test
	void namesNoInternalTypeButTheKnownOnes() {
		assertThat(InternalTypeLeaks.in(Path.of("target/classes"))).as(REASON)
			.containsExactlyInAnyOrder(
					"dev.controllerobservability.dashboard.GrafanaDashboard$Builder#operations mentions dev.controllerobservability.internal.operations.OperationDescriptor");
	}

}
