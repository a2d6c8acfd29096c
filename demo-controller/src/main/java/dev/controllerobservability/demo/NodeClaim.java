package dev.controllerobservability.demo;

import java.util.List;

/**
 * A node the packing decided to launch, and the pods that go onto it.
 *
 * @param instanceType the type to launch
 * @param pods the pods packed onto it
 */
public record NodeClaim(InstanceType instanceType, List<Pod> pods) {
}
