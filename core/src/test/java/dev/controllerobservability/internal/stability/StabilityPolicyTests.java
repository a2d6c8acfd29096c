package dev.controllerobservability.internal.stability;

import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.controllerobservability.stability.StabilityLevel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class StabilityPolicyTests {

	private static final Version DEPRECATED_IN = Version.parse("1.4.0");

	@ParameterizedTest(name = "{0} deprecated in 1.4.0, controller {1}: {2}")
	@CsvSource({ "ALPHA,1.3.9,VISIBLE", "ALPHA,1.4.0,DEPRECATED", "ALPHA,1.4.7,DEPRECATED", "ALPHA,1.5.0,HIDDEN",
			"ALPHA,2.0.0,HIDDEN", "INTERNAL,1.4.0,DEPRECATED", "INTERNAL,1.5.0,HIDDEN", "BETA,1.3.0,VISIBLE",
			"BETA,1.4.0,DEPRECATED", "BETA,1.5.3,DEPRECATED", "BETA,1.6.0,HIDDEN", "STABLE,1.4.0,DEPRECATED",
			"STABLE,1.5.0,DEPRECATED", "STABLE,1.6.0,DEPRECATED", "STABLE,1.7.0,DEPRECATED", "STABLE,1.8.0,HIDDEN",
			"STABLE,2.0.0,HIDDEN", "STABLE,0.9.0,VISIBLE" })
	void hidesDeprecatedMetricsAfterTheirLevelsWindow(StabilityLevel level, String version, Visibility expected) {
		StabilityPolicy policy = new StabilityPolicy(Version.parse(version), null, Set.of());
		assertThat(policy.visibility("karpenter_x_total", level, DEPRECATED_IN)).isEqualTo(expected);
	}

	@ParameterizedTest(name = "{0} deprecated in 1.4.0, controller {1}, show hidden for {2}: {3}")
	@CsvSource({ "ALPHA,1.5.0,1.4,DEPRECATED", "ALPHA,1.6.0,1.5,HIDDEN", "BETA,1.6.0,1.5,DEPRECATED",
			"BETA,1.7.0,1.6,HIDDEN", "STABLE,1.8.0,1.7,DEPRECATED", "STABLE,1.9.0,1.8,HIDDEN" })
	void showsAgainWhatThePreviousMinorVersionShowed(StabilityLevel level, String version, String showHidden,
			Visibility expected) {
		StabilityPolicy policy = new StabilityPolicy(Version.parse(version), Version.parseMinor(showHidden), Set.of());
		assertThat(policy.visibility("karpenter_x_total", level, DEPRECATED_IN)).isEqualTo(expected);
	}

	@Test
	void acceptsOnlyThePreviousMinorVersionForShowingHiddenMetrics() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new StabilityPolicy(Version.parse("1.5.2"), Version.parseMinor("1.3"), Set.of()))
			.withMessage("only the previous minor version of 1.5.2 is accepted: \"1.4\"");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new StabilityPolicy(Version.parse("2.0.0"), Version.parseMinor("1.9"), Set.of()))
			.withMessage("version 2.0.0 has no previous minor version, so nothing can be shown again");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new StabilityPolicy(null, Version.parseMinor("1.4"), Set.of()))
			.withMessageContaining("set the controller's version");
	}

	@Test
	void disabledWinsOverEverything() {
		StabilityPolicy policy = new StabilityPolicy(Version.parse("1.5.0"), Version.parseMinor("1.4"),
				Set.of("karpenter_x_total"));
		assertThat(policy.visibility("karpenter_x_total", StabilityLevel.STABLE, null)).isEqualTo(Visibility.DISABLED);
		assertThat(policy.visibility("karpenter_y_total", StabilityLevel.STABLE, null)).isEqualTo(Visibility.VISIBLE);
	}

	@Test
	void neverHidesWithoutAKnownVersion() {
		assertThat(StabilityPolicy.showAll().visibility("karpenter_x_total", StabilityLevel.ALPHA, DEPRECATED_IN))
			.isEqualTo(Visibility.DEPRECATED);
	}

	@Test
	void rendersHelpAsComponentBaseDoes() {
		assertThat(StabilityPolicy.help(StabilityLevel.STABLE, Visibility.VISIBLE, null, "Nodes launched."))
			.isEqualTo("[STABLE] Nodes launched.");
		assertThat(StabilityPolicy.help(StabilityLevel.ALPHA, Visibility.DEPRECATED, Version.parse("1.17.0"),
				"Nodes launched."))
			.isEqualTo("[ALPHA] (Deprecated since 1.17.0) Nodes launched.");
		assertThat(StabilityPolicy.help(StabilityLevel.BETA, Visibility.VISIBLE, Version.parse("2.0.0"), "Text."))
			.isEqualTo("[BETA] Text.");
	}

	@Test
	void parsesVersions() {
		assertThat(Version.parse("1.5.0-SNAPSHOT")).isEqualTo(new Version(1, 5, 0));
		assertThat(Version.parseMinor("1.4")).isEqualTo(new Version(1, 4, 0));
		assertThat(Version.parse("1.5.2").previousMinor()).isEqualTo(new Version(1, 4, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> Version.parse("1.5"))
			.withMessage("'1.5' is not a version of the form MAJOR.MINOR.PATCH");
		assertThatIllegalArgumentException().isThrownBy(() -> Version.parseMinor("v1"));
	}

}
