package dev.controllerobservability.internal.catalog;

import java.util.Arrays;

/**
 * Label keys and values as a caller passes them, compared element by element: the key
 * under which a series is found again without resolving its labels.
 *
 * @param keyValues keys, each followed by its value
 */
record KeyValues(String[] keyValues) {

	@Override
	public boolean equals(Object other) {
		return other instanceof KeyValues that && Arrays.equals(this.keyValues, that.keyValues);
	}

	@Override
	public int hashCode() {
		return Arrays.hashCode(this.keyValues);
	}

	@Override
	public String toString() {
		return Arrays.toString(this.keyValues);
	}

}
