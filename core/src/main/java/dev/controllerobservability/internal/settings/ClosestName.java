package dev.controllerobservability.internal.settings;

import java.util.Collection;

import org.jspecify.annotations.Nullable;

/**
 * The known name a misspelt one most likely meant, for the "did you mean" of a message
 * about a setting, whichever path set it.
 */
public final class ClosestName {

	private ClosestName() {
	}

	/**
	 * The known name closest to a misspelt one, if close enough to be a typo.
	 * @param written the name as written
	 * @param known the names known at that place
	 * @return the closest known name, or {@code null}
	 */
	public static @Nullable String of(String written, Collection<String> known) {
		String best = null;
		int bestDistance = Math.max(3, written.length() / 4);
		for (String candidate : known) {
			int distance = distance(written, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return best;
	}

	/**
	 * Levenshtein distance.
	 * @param a one text
	 * @param b another
	 * @return the number of single-character edits between them
	 */
	public static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
