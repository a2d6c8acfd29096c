package dev.controllerobservability.internal.kubernetes;

import java.util.Set;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceEventAware;

import dev.controllerobservability.RecordingFailures;

/**
 * Hears every change the controller's informer sees of its primary resources, the
 * status-only updates too, which the SDK's generation filter keeps from the controller
 * and from its metrics: the status a reconciler writes reaches the resource state metrics
 * as soon as the informer has it. It never emits an event.
 *
 * @param <P> the primary resource type
 */
public final class ResourceStateListener<P extends HasMetadata> extends AbstractEventSource<P, P>
		implements ResourceEventAware<P> {

	private final PrimaryResourceObjects objects;

	private final RecordingFailures failures;

	/**
	 * Creates the listener.
	 * @param resourceType the controller's resource type
	 * @param objects where the state goes
	 * @param failures where recording failures go
	 */
	public ResourceStateListener(Class<P> resourceType, PrimaryResourceObjects objects, RecordingFailures failures) {
		super(resourceType, "controller-observability-resource-state");
		this.objects = objects;
		this.failures = failures;
	}

	@Override
	public void onResourceCreated(P resource) {
		seen(resource);
	}

	@Override
	public void onResourceUpdated(P newResource, P oldResource) {
		seen(newResource);
	}

	private void seen(P resource) {
		try {
			this.objects.seen(resource);
		}
		catch (RuntimeException ex) {
			this.failures.record("record a resource's state", ex);
		}
	}

	@Override
	public Set<P> getSecondaryResources(P primary) {
		return Set.of();
	}

}
