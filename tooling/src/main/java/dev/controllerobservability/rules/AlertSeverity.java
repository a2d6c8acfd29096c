package dev.controllerobservability.rules;

import java.util.Locale;

/**
 * The {@code severity} label of an alert, which Alertmanager routes on. Written in lower
 * case in rules, as KubeVirt's and kube-prometheus' alerts carry it.
 */
public enum AlertSeverity {

	/** Someone must act now. */
	CRITICAL,

	/** Someone should look soon. */
	WARNING,

	/** For information; routed to no pager. */
	INFO;

	/**
	 * The severity as rules carry it: {@code critical}, {@code warning} or {@code info}.
	 * @return the lower-case name
	 */
	@Override
	public String toString() {
		return name().toLowerCase(Locale.ROOT);
	}

}
