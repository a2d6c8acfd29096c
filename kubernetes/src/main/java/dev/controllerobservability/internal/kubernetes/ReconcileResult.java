package dev.controllerobservability.internal.kubernetes;

/**
 * controller-runtime's {@code result} label values of
 * {@code controller_runtime_reconcile_total}.
 */
public enum ReconcileResult {

	/** The reconcile returned without asking for a requeue. */
	SUCCESS("success"),

	/** The reconcile threw. */
	ERROR("error"),

	/** The reconcile asked to run again at once. */
	REQUEUE("requeue"),

	/** The reconcile asked to run again after a delay. */
	REQUEUE_AFTER("requeue_after");

	private final String label;

	ReconcileResult(String label) {
		this.label = label;
	}

	/**
	 * The label value.
	 * @return the value of the {@code result} label
	 */
	public String label() {
		return this.label;
	}

}
