package dev.controllerobservability.internal.test;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InternalTypeLeaksTests {

	@Test
	void reportsEveryPublicOrProtectedMentionOfAnInternalTypeAndNothingElse() {
		String fixture = "dev.controllerobservability.test.leakfixture.";
		assertThat(InternalTypeLeaks.in(Path.of("target/test-classes"))).containsExactly(
				fixture + "LeakingApi#<init> mentions " + fixture + "internal.Hidden",
				fixture + "LeakingApi#hiddens mentions " + fixture + "internal.Hidden",
				fixture + "LeakingApi$Nested (supertype) mentions " + fixture + "internal.Hidden",
				fixture + "LeakingApi.field mentions " + fixture + "internal.Hidden");
	}

	@Test
	void findsNoLeakInTheTestSupportApi() {
		assertThat(InternalTypeLeaks.in(Path.of("target/classes"))).isEmpty();
	}

}
