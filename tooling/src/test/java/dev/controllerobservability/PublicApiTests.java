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

	@Test
	void namesNoInternalType() {
		assertThat(InternalTypeLeaks.in(Path.of("target/classes"))).isEmpty();
	}

}
