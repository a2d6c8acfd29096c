package dev.controllerobservability.demo.kubernetes;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A {@code Provisioner} ({@code provisioners.demo.controllerobservability.dev/v1}): pods
 * labelled {@value ProvisionerReconciler#PROVISIONER_LABEL}{@code =<name>} get nodes
 * launched for them by this provisioner.
 */
@Group("demo.controllerobservability.dev")
@Version("v1")
@Kind("Provisioner")
@Plural("provisioners")
public class ProvisionerResource extends CustomResource<ProvisionerResource.Spec, ProvisionerResource.Status>
		implements Namespaced {

	/**
	 * What the provisioner launches.
	 */
	public static class Spec {

		private boolean gpu;

		public boolean isGpu() {
			return this.gpu;
		}

		public void setGpu(boolean gpu) {
			this.gpu = gpu;
		}

	}

	/**
	 * What the provisioner has done so far.
	 */
	public static class Status {

		private long launchedNodes;

		private long boundPods;

		private long launchFailures;

		private Long observedGeneration;

		private List<Condition> conditions = new ArrayList<>();

		public long getLaunchedNodes() {
			return this.launchedNodes;
		}

		public void setLaunchedNodes(long launchedNodes) {
			this.launchedNodes = launchedNodes;
		}

		public long getBoundPods() {
			return this.boundPods;
		}

		public void setBoundPods(long boundPods) {
			this.boundPods = boundPods;
		}

		public long getLaunchFailures() {
			return this.launchFailures;
		}

		public void setLaunchFailures(long launchFailures) {
			this.launchFailures = launchFailures;
		}

		public Long getObservedGeneration() {
			return this.observedGeneration;
		}

		public void setObservedGeneration(Long observedGeneration) {
			this.observedGeneration = observedGeneration;
		}

		public List<Condition> getConditions() {
			return this.conditions;
		}

		public void setConditions(List<Condition> conditions) {
			this.conditions = conditions;
		}

	}

}
