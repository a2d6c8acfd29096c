package dev.controllerobservability.internal.kubernetes;

import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.catalog.ControllerMetrics;
import dev.controllerobservability.catalog.ObjectRef;
import dev.controllerobservability.internal.metrics.ResourceStateNames;

/**
 * The per-object series of a controller's primary resources: forgotten when a resource is
 * deleted and, when resource state is on, its conditions, generations and creation time,
 * read from the resource object the SDK hands over (never from the API server).
 */
public final class PrimaryResourceObjects {

	private final ControllerMetrics metrics;

	private final boolean resourceState;

	/** Reads status generically: fabric8's mapper knows every model type. */
	private final KubernetesSerialization serialization = new KubernetesSerialization();

	/** How many reconciliations of each resource are running, by namespace and name. */
	private final Map<ObjectRef, Integer> reconciling = new ConcurrentHashMap<>();

	/**
	 * Resources deleted while a reconciliation of theirs ran, which may have recorded
	 * into their series after they were forgotten: forgotten again when it ends.
	 */
	private final Map<ObjectRef, ObjectRef> deletedWhileReconciling = new ConcurrentHashMap<>();

	/** The condition types each object has series for, to remove those that go away. */
	private final Map<ObjectRef, Set<String>> conditionTypes = new ConcurrentHashMap<>();

	/**
	 * The resource version last recorded for each object: the SDK hands the same version
	 * over several times (its event, the informer's listener, the reconciliation), and
	 * reading the status again would change nothing.
	 */
	private final Map<ObjectRef, String> recordedVersions = new ConcurrentHashMap<>();

	/**
	 * Creates the recorder.
	 * @param metrics where the per-object series are
	 * @param resourceState whether to record the resource state metrics, which must then
	 * be declared
	 */
	public PrimaryResourceObjects(ControllerMetrics metrics, boolean resourceState) {
		this.metrics = metrics;
		this.resourceState = resourceState;
	}

	/**
	 * Whether the resource state metrics are recorded.
	 * @return whether they are
	 */
	public boolean recordsState() {
		return this.resourceState;
	}

	/**
	 * Removes every series of a deleted resource, in every per-object metric.
	 * @param object the resource
	 */
	public void deleted(ObjectRef object) {
		this.conditionTypes.remove(object);
		this.recordedVersions.remove(object);
		ObjectRef key = ObjectRef.of(object.namespace(), object.name());
		// Noted before the series go, so that a reconciliation ending meanwhile forgets
		// again rather than leave what it recorded.
		this.reconciling.computeIfPresent(key, (ref, running) -> {
			this.deletedWhileReconciling.put(key, object);
			return running;
		});
		this.metrics.forget(object);
	}

	/**
	 * Notes that a reconciliation of a resource starts.
	 * @param resource the resource
	 */
	public void reconciling(HasMetadata resource) {
		this.reconciling.merge(key(resource), 1, Integer::sum);
	}

	/**
	 * Notes that a reconciliation of a resource ended. If the resource was deleted while
	 * it ran, what it recorded after the deletion is forgotten too.
	 * @param resource the resource
	 */
	public void reconciled(HasMetadata resource) {
		ObjectRef key = key(resource);
		this.reconciling.computeIfPresent(key, (ref, running) -> (running > 1) ? running - 1 : null);
		ObjectRef deleted = this.deletedWhileReconciling.remove(key);
		if (deleted != null) {
			this.conditionTypes.remove(deleted);
			this.recordedVersions.remove(deleted);
			this.metrics.forget(deleted);
		}
	}

	private static ObjectRef key(HasMetadata resource) {
		ObjectRef object = objectRef(resource);
		return ObjectRef.of(object.namespace(), object.name());
	}

	/**
	 * Records the state of a resource as the SDK last saw it. A resource marked for
	 * deletion is left as it is: its cleanup forgets it.
	 * @param resource the resource
	 */
	public void seen(HasMetadata resource) {
		ObjectMeta metadata = resource.getMetadata();
		if (!this.resourceState || metadata == null || metadata.getDeletionTimestamp() != null) {
			return;
		}
		ObjectRef object = objectRef(resource);
		String version = metadata.getResourceVersion();
		if (version != null && version.equals(this.recordedVersions.get(object))) {
			return;
		}
		if (metadata.getGeneration() != null) {
			this.metrics.gauge(ResourceStateNames.GENERATION, object).set(metadata.getGeneration());
		}
		if (metadata.getCreationTimestamp() != null) {
			this.metrics.gauge(ResourceStateNames.CREATED, object)
				.set(OffsetDateTime.parse(metadata.getCreationTimestamp()).toEpochSecond());
		}
		JsonNode status = this.serialization.convertValue(resource, JsonNode.class).path("status");
		JsonNode observed = status.path("observedGeneration");
		if (observed.isNumber()) {
			this.metrics.gauge(ResourceStateNames.OBSERVED_GENERATION, object).set(observed.asDouble());
		}
		else {
			this.metrics.forget(ResourceStateNames.OBSERVED_GENERATION, object);
		}
		conditions(object, status.path("conditions"));
		if (version != null) {
			this.recordedVersions.put(object, version);
		}
	}

	private void conditions(ObjectRef object, JsonNode conditions) {
		Map<String, String> current = new LinkedHashMap<>();
		for (JsonNode condition : conditions) {
			JsonNode type = condition.path("type");
			if (type.isTextual() && !type.asText().isEmpty()) {
				current.put(type.asText(), condition.path("status").asText(""));
			}
		}
		Set<String> before = this.conditionTypes.get(object);
		if (before != null && !current.keySet().containsAll(before)) {
			this.metrics.forget(ResourceStateNames.STATUS_CONDITION, object);
		}
		if (current.isEmpty()) {
			this.conditionTypes.remove(object);
			return;
		}
		this.conditionTypes.put(object, Set.copyOf(current.keySet()));
		current.forEach((type, status) -> {
			for (String value : ResourceStateNames.STATUSES) {
				this.metrics
					.gauge(ResourceStateNames.STATUS_CONDITION, object, ResourceStateNames.TYPE_LABEL, type,
							ResourceStateNames.STATUS_LABEL, value)
					.set(value.equals(status) ? 1 : 0);
			}
		});
	}

	/**
	 * The identity of a resource.
	 * @param resource the resource
	 * @return its kind, namespace and name
	 */
	public static ObjectRef objectRef(HasMetadata resource) {
		return objectRef(resource.getKind(), resource.getMetadata().getNamespace(), resource.getMetadata().getName());
	}

	/**
	 * The identity of a resource.
	 * @param kind its kind, or {@code null} when unknown
	 * @param namespace its namespace, {@code null} when cluster-scoped
	 * @param name its name
	 * @return the identity
	 */
	public static ObjectRef objectRef(@Nullable String kind, @Nullable String namespace, String name) {
		return new ObjectRef(kind, (namespace != null) ? namespace : "", name);
	}

}
