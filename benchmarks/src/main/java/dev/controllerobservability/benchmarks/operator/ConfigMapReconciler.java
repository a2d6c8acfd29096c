package dev.controllerobservability.benchmarks.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts the entries of every {@code ConfigMap} it reconciles with a plain Micrometer
 * counter, as a controller written before the starter would.
 */
@ControllerConfiguration(name = "configmaps")
public class ConfigMapReconciler implements Reconciler<ConfigMap> {

	private final Counter entries;

	public ConfigMapReconciler(MeterRegistry registry) {
		this.entries = Counter.builder("configmap.entries.seen")
			.description("Number of ConfigMap entries reconciled.")
			.register(registry);
	}

	@Override
	public UpdateControl<ConfigMap> reconcile(ConfigMap configMap, Context<ConfigMap> context) {
		if (configMap.getData() != null) {
			this.entries.increment(configMap.getData().size());
		}
		return UpdateControl.noUpdate();
	}

}
