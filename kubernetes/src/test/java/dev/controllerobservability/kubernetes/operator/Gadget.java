package dev.controllerobservability.kubernetes.operator;

import java.util.List;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A typed custom resource with the usual status: conditions and an observed generation.
 */
@Group("test.controllerobservability.dev")
@Version("v1")
public class Gadget extends CustomResource<Void, Gadget.Status> implements Namespaced {

	static Gadget named(String name, long generation) {
		Gadget gadget = new Gadget();
		gadget.getMetadata().setName(name);
		gadget.getMetadata().setNamespace("default");
		gadget.getMetadata().setGeneration(generation);
		gadget.getMetadata().setCreationTimestamp("2026-01-02T03:04:05Z");
		return gadget;
	}

	Gadget withStatus(Long observedGeneration, String... typeStatusPairs) {
		Status status = new Status();
		status.setObservedGeneration(observedGeneration);
		for (int i = 0; i < typeStatusPairs.length; i += 2) {
			status.getConditions()
				.add(new ConditionBuilder().withType(typeStatusPairs[i]).withStatus(typeStatusPairs[i + 1]).build());
		}
		setStatus(status);
		return this;
	}

	/**
	 * The observed state.
	 */
	public static class Status {

		private Long observedGeneration;

		private List<Condition> conditions = new java.util.ArrayList<>();

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
