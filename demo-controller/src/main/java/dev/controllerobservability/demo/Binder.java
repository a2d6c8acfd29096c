package dev.controllerobservability.demo;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.stereotype.Component;

/**
 * Binds a pod to a node; simulated as a short API call.
 */
@Component
public class Binder {

	/**
	 * Binds a pod.
	 * @param pod the pending pod
	 * @param node the node it goes to
	 */
	public void bind(Pod pod, Node node) {
		CloudProvider.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextLong(1, 6)));
	}

}
