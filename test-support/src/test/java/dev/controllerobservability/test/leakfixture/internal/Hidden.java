package dev.controllerobservability.test.leakfixture.internal;

/** An internal type that {@code LeakingApi} names. */
public class Hidden {

}
