package dev.controllerobservability.autoconfigure;

/**
 * Kubernetes metrics under client-go's and controller-runtime's names.
 */
public class KubernetesProperties {

	/**
	 * Whether to count fabric8 client calls as rest_client_*, record Java Operator SDK
	 * reconciliations as controller_runtime_* and workqueue_*, and expose
	 * leader_election_master_status, when those libraries are present.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
