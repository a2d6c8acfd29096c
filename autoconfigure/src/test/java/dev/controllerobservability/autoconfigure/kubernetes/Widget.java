package dev.controllerobservability.autoconfigure.kubernetes;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A custom resource whose spec tells the test reconciler how to end.
 */
@Group("test.controllerobservability.dev")
@Version("v1")
public class Widget extends CustomResource<Widget.Spec, Void> implements Namespaced {

	static Widget named(String name, String outcome) {
		Widget widget = new Widget();
		widget.getMetadata().setName(name);
		widget.getMetadata().setNamespace("default");
		Spec spec = new Spec();
		spec.setOutcome(outcome);
		widget.setSpec(spec);
		return widget;
	}

	/**
	 * The outcome the reconciler produces.
	 */
	public static class Spec {

		private String outcome;

		public String getOutcome() {
			return this.outcome;
		}

		public void setOutcome(String outcome) {
			this.outcome = outcome;
		}

	}

}
