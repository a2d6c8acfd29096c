package dev.controllerobservability.internal.stability;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A controller version, compared by major and minor version only, as metric deprecation
 * is. Parses {@code 1.5.0}, {@code 1.5.0-SNAPSHOT} and {@code 1.5}.
 *
 * @param major major version
 * @param minor minor version
 * @param patch patch version, 0 when not given
 */
public record Version(int major, int minor, int patch) implements Comparable<Version> {

	private static final Pattern FULL = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)([-+][0-9A-Za-z.+-]*)?");

	private static final Pattern MAJOR_MINOR = Pattern.compile("(\\d+)\\.(\\d+)");

	/**
	 * Parses a full version such as {@code 1.5.0} or {@code 1.5.0-SNAPSHOT}.
	 * @param text the version
	 * @return the version
	 * @throws IllegalArgumentException if it is not of that form
	 */
	public static Version parse(String text) {
		Matcher matcher = FULL.matcher((text != null) ? text.trim() : "");
		if (!matcher.matches()) {
			throw new IllegalArgumentException("'" + text + "' is not a version of the form MAJOR.MINOR.PATCH");
		}
		return new Version(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
				Integer.parseInt(matcher.group(3)));
	}

	/**
	 * Parses a minor version such as {@code 1.4}.
	 * @param text the version
	 * @return the version with patch 0
	 * @throws IllegalArgumentException if it is not of that form
	 */
	public static Version parseMinor(String text) {
		Matcher matcher = MAJOR_MINOR.matcher((text != null) ? text.trim() : "");
		if (!matcher.matches()) {
			throw new IllegalArgumentException("'" + text + "' is not a version of the form MAJOR.MINOR");
		}
		return new Version(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)), 0);
	}

	/**
	 * The minor version before this one in the same major version.
	 * @return the previous minor version, or {@code null} for {@code x.0}
	 */
	public Version previousMinor() {
		return (this.minor > 0) ? new Version(this.major, this.minor - 1, 0) : null;
	}

	/**
	 * Number of minor versions this version is past {@code other}, comparing major and
	 * minor only; {@link Integer#MAX_VALUE} across a later major version and negative
	 * before {@code other}.
	 * @param other the earlier version
	 * @return the distance in minor versions
	 */
	public int minorsPast(Version other) {
		if (this.major != other.major) {
			return (this.major > other.major) ? Integer.MAX_VALUE : Integer.MIN_VALUE;
		}
		return this.minor - other.minor;
	}

	/**
	 * {@code MAJOR.MINOR}, as {@code show-hidden-metrics-for-version} takes it.
	 * @return the minor version text
	 */
	public String toMinorString() {
		return this.major + "." + this.minor;
	}

	@Override
	public int compareTo(Version other) {
		int byMajor = Integer.compare(this.major, other.major);
		if (byMajor != 0) {
			return byMajor;
		}
		int byMinor = Integer.compare(this.minor, other.minor);
		return (byMinor != 0) ? byMinor : Integer.compare(this.patch, other.patch);
	}

	@Override
	public String toString() {
		return this.major + "." + this.minor + "." + this.patch;
	}

}
