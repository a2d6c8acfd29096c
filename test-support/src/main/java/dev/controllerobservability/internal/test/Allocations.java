package dev.controllerobservability.internal.test;

import java.lang.management.ManagementFactory;

/**
 * Measures what a call allocates on the calling thread once the JIT has compiled it.
 * <p>
 * A single measured round is not enough on a loaded machine: the compiler works in the
 * background, so a round can still run interpreted or freshly deoptimized code, which
 * allocates what the compiled code does not (escape analysis removes it). Taking the
 * least of several rounds measures the steady state, and a call that really allocates
 * allocates in every round.
 */
public final class Allocations {

	private Allocations() {
	}

	/**
	 * Runs {@code call} {@code calls} times to warm up, then {@code rounds} rounds of
	 * {@code calls} more, so {@code (rounds + 1) * calls} times in all.
	 * @param call the call to measure
	 * @param calls the calls in the warm-up and in each round
	 * @param rounds the measured rounds
	 * @return the bytes allocated per call in the round that allocated least
	 */
	public static double leastPerCall(Runnable call, int calls, int rounds) {
		if (calls < 1 || rounds < 1) {
			throw new IllegalArgumentException(
					"calls and rounds must be at least 1, got calls=" + calls + " and rounds=" + rounds);
		}
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		for (int i = 0; i < calls; i++) {
			call.run();
		}
		long least = Long.MAX_VALUE;
		for (int round = 0; round < rounds; round++) {
			long before = threads.getCurrentThreadAllocatedBytes();
			for (int i = 0; i < calls; i++) {
				call.run();
			}
			least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
		}
		return (double) least / calls;
	}

}
