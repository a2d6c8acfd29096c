package dev.controllerobservability.autoconfigure;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Kubernetes metrics under client-go's and controller-runtime's names.
 *
 * @param enabled Whether to count fabric8 client calls as rest_client_*, record Java
 * Operator SDK reconciliations as controller_runtime_* and workqueue_*, and expose
 * leader_election_master_status, when those libraries are present.
 */
public record KubernetesProperties(@DefaultValue("true") boolean enabled) {

}
