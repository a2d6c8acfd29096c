package dev.controllerobservability.internal.stability;

import java.util.Set;

import dev.controllerobservability.stability.StabilityLevel;

/**
 * Decides, as Kubernetes component-base does, whether a metric is visible, deprecated,
 * hidden or disabled for the controller's version, and renders its help text.
 * <ul>
 * <li>A metric is deprecated once the controller's version reaches its deprecated
 * version.</li>
 * <li>It is hidden once the controller's version is more minor versions past the
 * deprecated version than its level's window: 0 for ALPHA and INTERNAL, 1 for BETA, 3 for
 * STABLE. A later major version hides it.</li>
 * <li>{@code show-hidden-metrics-for-version} (the previous minor version only) shows
 * again the metrics that were still shown in that version.</li>
 * <li>{@code disabled-metrics} wins over everything.</li>
 * </ul>
 * Example: a BETA metric deprecated in 1.4.0 is {@code [BETA] (Deprecated since 1.4.0)
 * ...} in 1.4 and 1.5, hidden in 1.6, and shown again in 1.6 with
 * {@code show-hidden-metrics-for-version: "1.5"}.
 */
public final class StabilityPolicy {

	private final Version version;

	private final Version showHiddenFor;

	private final Set<String> disabled;

	/**
	 * Creates a policy.
	 * @param version the controller's version; {@code null} when unknown, in which case
	 * deprecated metrics are never hidden
	 * @param showHiddenFor the previous minor version whose visible metrics are shown
	 * again, or {@code null}
	 * @param disabled exposed names of metrics never to register
	 * @throws IllegalArgumentException if {@code showHiddenFor} is not the previous minor
	 * version of {@code version}
	 */
	public StabilityPolicy(Version version, Version showHiddenFor, Set<String> disabled) {
		if (showHiddenFor != null) {
			Version allowed = (version != null) ? version.previousMinor() : null;
			if (allowed == null || allowed.minorsPast(showHiddenFor) != 0) {
				throw new IllegalArgumentException(describeAllowedShowHidden(version));
			}
		}
		this.version = version;
		this.showHiddenFor = showHiddenFor;
		this.disabled = Set.copyOf(disabled);
	}

	/**
	 * Explains which value {@code show-hidden-metrics-for-version} accepts.
	 * @param version the controller's version, or {@code null}
	 * @return the explanation
	 */
	public static String describeAllowedShowHidden(Version version) {
		if (version == null) {
			return "the controller's version is unknown, so no version can be shown again; set the controller's "
					+ "version";
		}
		Version previous = version.previousMinor();
		return (previous != null)
				? "only the previous minor version of " + version + " is accepted: \"" + previous.toMinorString() + "\""
				: "version " + version + " has no previous minor version, so nothing can be shown again";
	}

	/**
	 * A policy that shows everything.
	 * @return a policy without version and without disabled metrics
	 */
	public static StabilityPolicy showAll() {
		return new StabilityPolicy(null, null, Set.of());
	}

	/**
	 * Decides how a metric is exposed.
	 * @param exposedName the metric's full name, such as {@code karpenter_nodes_total}
	 * @param level its stability level
	 * @param deprecatedVersion the version that deprecated it, or {@code null}
	 * @return its visibility
	 */
	public Visibility visibility(String exposedName, StabilityLevel level, Version deprecatedVersion) {
		if (this.disabled.contains(exposedName)) {
			return Visibility.DISABLED;
		}
		if (deprecatedVersion == null) {
			return Visibility.VISIBLE;
		}
		if (this.version == null) {
			return Visibility.DEPRECATED;
		}
		if (this.version.minorsPast(deprecatedVersion) < 0) {
			return Visibility.VISIBLE;
		}
		if (isHiddenAt(this.version, level, deprecatedVersion)
				&& (this.showHiddenFor == null || isHiddenAt(this.showHiddenFor, level, deprecatedVersion))) {
			return Visibility.HIDDEN;
		}
		return Visibility.DEPRECATED;
	}

	private static boolean isHiddenAt(Version version, StabilityLevel level, Version deprecatedVersion) {
		return version.minorsPast(deprecatedVersion) > level.deprecationWindow();
	}

	/**
	 * Renders help text as component-base does: {@code [STABLE] text} or
	 * {@code [STABLE] (Deprecated since 1.17.0) text}.
	 * @param level the stability level
	 * @param visibility the metric's visibility
	 * @param deprecatedVersion the deprecated version, or {@code null}
	 * @param help the help text
	 * @return the annotated help text
	 */
	public static String help(StabilityLevel level, Visibility visibility, Version deprecatedVersion, String help) {
		String deprecation = (visibility == Visibility.DEPRECATED && deprecatedVersion != null)
				? "(Deprecated since " + deprecatedVersion + ") " : "";
		return "[" + level + "] " + deprecation + help;
	}

}
