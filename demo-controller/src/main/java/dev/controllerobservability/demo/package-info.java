/**
 * A Karpenter-like provisioner, simulated in-process: pending pods arrive, and a loop per
 * provisioner packs them onto instance types, launches nodes from a simulated cloud and
 * binds the pods, timing each step with the Controller Observability starter.
 */
@NullMarked
package dev.controllerobservability.demo;

import org.jspecify.annotations.NullMarked;
