package dev.controllerobservability.autoconfigure.operations;

/**
 * The advisor's type for tests of other packages that check it is, or is not, a bean: the
 * advisor itself stays package-private.
 */
public final class ObservedOperationAdvisors {

	/** The type of the advisor the aspect auto-configuration registers. */
	public static final Class<?> TYPE = ObservedOperationAdvisor.class;

	private ObservedOperationAdvisors() {
	}

}
