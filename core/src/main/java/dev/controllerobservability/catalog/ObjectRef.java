package dev.controllerobservability.catalog;

import org.jspecify.annotations.Nullable;

/**
 * The identity of one Kubernetes object, as the series of a per-object metric carry it
 * ({@link MetricDefinition.Builder#perObject()}): its {@code namespace} and {@code name}
 * labels and, for metrics declared with the kind, its {@code kind} label. Example:
 *
 * <pre>{@code
 * metrics.gauge("certificate_expiration_timestamp_seconds", ObjectRef.of("prod", "web-tls")).set(expiry);
 * metrics.forget(ObjectRef.of("prod", "web-tls"));
 * }</pre>
 *
 * @param kind the object's kind, such as {@code Certificate}, or {@code null} when it
 * does not matter: {@link ControllerMetrics#forget(ObjectRef)} then forgets the object of
 * every kind with that namespace and name
 * @param namespace the object's namespace; empty for a cluster-scoped object, whose
 * {@code namespace} label is then {@code none}
 * @param name the object's name
 */
public record ObjectRef(@Nullable String kind, String namespace, String name) {

	/** Label of a per-object series that holds the object's kind. */
	public static final String KIND_LABEL = "kind";

	/** Label of a per-object series that holds the object's namespace. */
	public static final String NAMESPACE_LABEL = "namespace";

	/** Label of a per-object series that holds the object's name. */
	public static final String NAME_LABEL = "name";

	/**
	 * Checks the identity.
	 * @throws IllegalArgumentException if the name is {@code null} or empty, or the
	 * namespace is {@code null}
	 */
	public ObjectRef {
		if (name == null || name.isEmpty()) {
			throw new IllegalArgumentException("An object's name is " + ((name == null) ? "null" : "empty")
					+ "; give the name from its metadata, such as ObjectRef.of(\"prod\", \"web-tls\")");
		}
		if (namespace == null) {
			throw new IllegalArgumentException("The namespace of object '" + name
					+ "' is null; give its namespace, or \"\" for a cluster-scoped object");
		}
		if (kind != null && kind.isEmpty()) {
			kind = null;
		}
	}

	/**
	 * An object of any kind.
	 * @param namespace its namespace, {@code ""} for a cluster-scoped object
	 * @param name its name
	 * @return the identity
	 */
	public static ObjectRef of(String namespace, String name) {
		return new ObjectRef(null, namespace, name);
	}

	/**
	 * An object of one kind.
	 * @param kind its kind, such as {@code Certificate}
	 * @param namespace its namespace, {@code ""} for a cluster-scoped object
	 * @param name its name
	 * @return the identity
	 */
	public static ObjectRef of(String kind, String namespace, String name) {
		return new ObjectRef(kind, namespace, name);
	}

}
