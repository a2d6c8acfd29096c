package dev.controllerobservability.internal.stability;

/**
 * Whether a metric is exposed, and how.
 */
public enum Visibility {

	/** Registered with its normal help text. */
	VISIBLE,

	/** Registered, help text marked {@code (Deprecated since X)}. */
	DEPRECATED,

	/** Deprecated for longer than its level's window: not registered. */
	HIDDEN,

	/** Listed in {@code disabled-metrics}: not registered, whatever its level. */
	DISABLED;

	/**
	 * Whether a metric of this visibility is registered.
	 * @return whether it is exposed
	 */
	public boolean isExposed() {
		return this == VISIBLE || this == DEPRECATED;
	}

}
