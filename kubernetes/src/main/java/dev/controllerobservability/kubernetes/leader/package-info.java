/**
 * {@code leader_election_master_status} for fabric8, Java Operator SDK and other leader
 * elections.
 * <p>
 * This package does not depend on Spring.
 */
package dev.controllerobservability.kubernetes.leader;
