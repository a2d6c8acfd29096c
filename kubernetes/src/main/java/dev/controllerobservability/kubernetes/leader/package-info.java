/**
 * {@code leader_election_master_status} for fabric8, Java Operator SDK and other leader
 * elections.
 * <p>
 * This package does not depend on Spring.
 */
@NullMarked
package dev.controllerobservability.kubernetes.leader;

import org.jspecify.annotations.NullMarked;
