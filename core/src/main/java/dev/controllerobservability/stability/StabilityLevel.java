package dev.controllerobservability.stability;

/**
 * How much a metric's users may rely on it, as Kubernetes component-base defines it. The
 * level sets how long a deprecated metric stays visible: see
 * {@link #deprecationWindow()}.
 */
public enum StabilityLevel {

	/** For the controller's developers only; no guarantee. */
	INTERNAL(0),

	/** The default: may change or go away at any time. */
	ALPHA(0),

	/** May gain labels; other changes go through deprecation. */
	BETA(1),

	/** Name, type, labels and buckets do not change; removal goes through deprecation. */
	STABLE(3);

	private final int deprecationWindow;

	StabilityLevel(int deprecationWindow) {
		this.deprecationWindow = deprecationWindow;
	}

	/**
	 * Number of minor versions after its deprecated version during which a deprecated
	 * metric of this level is still shown; past that it is hidden.
	 * @return the window in minor versions
	 */
	public int deprecationWindow() {
		return this.deprecationWindow;
	}

}
