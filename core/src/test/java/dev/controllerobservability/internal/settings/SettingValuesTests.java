package dev.controllerobservability.internal.settings;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.controllerobservability.InvalidSettingException;
import dev.controllerobservability.internal.stability.Version;
import dev.controllerobservability.internal.stability.Visibility;
import dev.controllerobservability.stability.StabilityLevel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The one check of every setting that the builder and the Spring Boot properties share.
 */
class SettingValuesTests {

	@Test
	void derivesTheNamespaceFromAnApplicationNameThatCanServeAsOne() {
		assertThat(SettingValues.derivedNamespace("Demo-Controller")).isEqualTo("demo_controller");
		assertThat(SettingValues.derivedNamespace("jvm-tools")).isEqualTo("controller");
		assertThat(SettingValues.derivedNamespace("1st")).isEqualTo("controller");
		assertThat(SettingValues.derivedNamespace(null)).isEqualTo("controller");
	}

	@Test
	void usesTheFallbackVersionWhenNoneIsGivenAndItIsOne() {
		Version deprecated = Version.parse("1.0.0");
		assertThat(values(null, "1.2.0").check((namespace) -> List.of(), SettingNames.PROPERTIES)
			.stability()
			.visibility("karpenter_old_total", StabilityLevel.ALPHA, deprecated)).isEqualTo(Visibility.HIDDEN);
		assertThat(values("1.0.0", "1.2.0").check((namespace) -> List.of(), SettingNames.PROPERTIES)
			.stability()
			.visibility("karpenter_old_total", StabilityLevel.ALPHA, deprecated)).isEqualTo(Visibility.DEPRECATED);
		assertThat(values(null, "dev").check((namespace) -> List.of(), SettingNames.PROPERTIES)
			.stability()
			.visibility("karpenter_old_total", StabilityLevel.ALPHA, deprecated)).isEqualTo(Visibility.DEPRECATED);
	}

	@Test
	void refusesAGivenVersionThatIsNone() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> values("dev", null).check((namespace) -> List.of(), SettingNames.PROPERTIES))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("version"));
	}

	@Test
	void checksTheMetricsWithTheCheckedNamespace() {
		CheckedSettings settings = values(null, null).check((namespace) -> {
			assertThat(namespace).isEqualTo("karpenter");
			return List.of();
		}, SettingNames.BUILDER);
		assertThat(settings.namespace()).isEqualTo("karpenter");
		assertThat(settings.settingNames()).isEqualTo(SettingNames.BUILDER);
	}

	private static SettingValues values(String version, String fallbackVersion) {
		return new SettingValues("karpenter", Map.of(), List.of(0.1, 1.0), List.of(), Duration.ofMinutes(1), List.of(),
				List.of(), 100, version, fallbackVersion, null, List.of(), Map.of(), 200, 128, 1000);
	}

}
