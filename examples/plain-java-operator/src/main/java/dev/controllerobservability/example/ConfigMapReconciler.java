package dev.controllerobservability.example;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.micrometer.core.instrument.Tags;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * Times its work as the {@code apply} operation, tagged with the resource's kind, and
 * counts each applied ConfigMap in the catalog counter {@value #APPLIED}; the per-object
 * gauge {@value #KEYS} holds each ConfigMap's number of keys until it is deleted.
 */
@ControllerConfiguration(name = "configmaps")
final class ConfigMapReconciler implements Reconciler<ConfigMap> {

	/** The catalog counter, declared in {@link PlainJavaOperator}. */
	static final String APPLIED = "configmaps_applied_total";

	/** The per-object gauge, declared in {@link PlainJavaOperator}. */
	static final String KEYS = "configmap_keys";

	private final ControllerOperations operations;

	private final ControllerMetrics metrics;

	ConfigMapReconciler(ControllerOperations operations, ControllerMetrics metrics) {
		this.operations = operations;
		this.metrics = metrics;
	}

	@Override
	public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
		this.operations.observe("apply", Tags.of("kind", resource.getKind()),
				() -> this.metrics.counter(APPLIED, "kind", resource.getKind()).increment());
		ObjectRef configMap = ObjectRef.of(resource.getKind(), resource.getMetadata().getNamespace(),
				resource.getMetadata().getName());
		this.metrics.gauge(KEYS, configMap).set((resource.getData() != null) ? resource.getData().size() : 0);
		return UpdateControl.noUpdate();
	}

}
