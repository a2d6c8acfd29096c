package dev.controllerobservability.autoconfigure;

import dev.controllerobservability.stability.StabilityLevel;

/**
 * Reads a stability level as written in configuration, case-insensitively.
 */
final class StabilityLevels {

	private StabilityLevels() {
	}

	static StabilityLevel parse(String property, String text) {
		for (StabilityLevel level : StabilityLevel.values()) {
			if (level.name().equalsIgnoreCase((text != null) ? text.trim() : "")) {
				return level;
			}
		}
		throw new InvalidObservabilityPropertyException(property, text, "the stability level is unknown",
				"Set it to one of INTERNAL, ALPHA, BETA or STABLE");
	}

}
