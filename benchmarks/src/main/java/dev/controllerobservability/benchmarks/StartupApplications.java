package dev.controllerobservability.benchmarks;

import org.springframework.context.ConfigurableApplicationContext;

import dev.controllerobservability.benchmarks.operator.OperatorApplication;

/**
 * The two runs whose start-up and heap are compared: the same controller
 * ({@link OperatorApplication}, same classes, configuration and class path) with the
 * starter's auto-configurations and without them.
 */
final class StartupApplications {

	private StartupApplications() {
	}

	/**
	 * Starts one on a free port.
	 * @param application {@code starter} or {@code without-starter}
	 * @return the started context
	 */
	static ConfigurableApplicationContext start(String application) {
		return switch (application) {
			case "starter" -> OperatorApplication.start(true);
			case "without-starter" -> OperatorApplication.start(false);
			default -> throw new IllegalArgumentException(
					"Unknown application '" + application + "'; use starter or without-starter");
		};
	}

}
