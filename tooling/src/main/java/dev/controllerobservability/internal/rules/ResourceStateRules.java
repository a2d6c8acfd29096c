package dev.controllerobservability.internal.rules;

import java.util.List;

import dev.controllerobservability.internal.metrics.ResourceStateNames;
import dev.controllerobservability.rules.AlertRule;

/**
 * The built-in alerts on the resource state metrics. For namespace {@code karpenter}:
 *
 * <pre>
 * ResourceNotReady:                max without (instance, pod) (karpenter_resource_status_condition{type="Ready",status="True"}) == 0
 * ResourceGenerationNotReconciled: max without (instance, pod) (karpenter_resource_generation)
 *                                    &gt; max without (instance, pod) (karpenter_resource_observed_generation)
 * </pre>
 *
 * A resource's state is the resource's, not a replica's: with replicas, every replica
 * that reconciled it (the leader, a former leader still running) reports it, so the rules
 * take the newest view over the replicas' target labels and raise one alert per resource,
 * never one per replica. Generations only grow, so the maximum is the newest.
 */
public final class ResourceStateRules {

	/** The target labels that tell a controller's replicas apart. */
	public static final String REPLICA_LABELS = "instance, pod";

	private static final String WHICH = "{{ $labels.kind }} {{ $labels.namespace }}/{{ $labels.name }}";

	private ResourceStateRules() {
	}

	/**
	 * The expression of the not-ready alert, which the dashboard counts too.
	 * @param namespace the controller's namespace
	 * @param matchers further label matchers, such as {@code job=~"$job"}, or empty
	 * @return the PromQL
	 */
	public static String notReady(String namespace, String matchers) {
		return overReplicas(namespace + "_" + ResourceStateNames.STATUS_CONDITION + "{"
				+ (matchers.isEmpty() ? "" : matchers + ", ") + ResourceStateNames.TYPE_LABEL + "=\""
				+ ResourceStateNames.READY + "\", " + ResourceStateNames.STATUS_LABEL + "=\"True\"}") + " == 0";
	}

	/**
	 * The expression of the generation-not-reconciled alert, which the dashboard counts
	 * too.
	 * @param namespace the controller's namespace
	 * @param matchers further label matchers, such as {@code job=~"$job"}, or empty
	 * @return the PromQL
	 */
	public static String generationNotReconciled(String namespace, String matchers) {
		String selector = matchers.isEmpty() ? "" : "{" + matchers + "}";
		return overReplicas(namespace + "_" + ResourceStateNames.GENERATION + selector) + " > "
				+ overReplicas(namespace + "_" + ResourceStateNames.OBSERVED_GENERATION + selector);
	}

	/**
	 * One series per resource out of every replica's: the newest value.
	 * @param selector a series selector
	 * @return the PromQL
	 */
	public static String overReplicas(String selector) {
		return "max without (" + REPLICA_LABELS + ") (" + selector + ")";
	}

	/**
	 * One series per controller out of every replica's: their sum.
	 * @param selector a series selector or expression
	 * @return the PromQL
	 */
	public static String sumOverReplicas(String selector) {
		return "sum without (" + REPLICA_LABELS + ") (" + selector + ")";
	}

	/**
	 * Adds the alerts switched on.
	 * @param namespace the controller's namespace
	 * @param settings the alerts
	 * @param alerts where alerts go
	 */
	public static void add(String namespace, ResourceStateRuleSettings settings, List<AlertRule> alerts) {
		ResourceStateRuleSettings.Alert notReady = settings.notReady();
		if (notReady != null) {
			alerts.add(new AlertRule("ResourceNotReady", notReady(namespace, ""), notReady.forDuration(),
					notReady.severity().toString(), WHICH + " is not ready",
					"Its Ready condition has not been True for " + notReady.forDuration() + ".", null, null, null));
		}
		ResourceStateRuleSettings.Alert generation = settings.generationNotReconciled();
		if (generation != null) {
			alerts.add(new AlertRule("ResourceGenerationNotReconciled", generationNotReconciled(namespace, ""),
					generation.forDuration(), generation.severity().toString(),
					WHICH + " has a generation its controller has not reconciled",
					"Generation {{ $value }} above the observed one for " + generation.forDuration()
							+ ": the controller has not caught up with the latest change.",
					null, null, null));
		}
	}

}
