package dev.controllerobservability.benchmarks;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import dev.controllerobservability.benchmarks.baseline.BaselineApplication;
import dev.controllerobservability.demo.DemoControllerApplication;

/**
 * The two applications whose start-up and heap are compared.
 */
final class StartupApplications {

	private StartupApplications() {
	}

	/**
	 * Starts one on a free port.
	 * @param application {@code starter} (the demo controller) or {@code baseline}
	 * @return the started context
	 */
	static ConfigurableApplicationContext start(String application) {
		return switch (application) {
			case "starter" -> SpringApplication.run(DemoControllerApplication.class, "--server.port=0",
					"--spring.main.banner-mode=off", "--logging.level.root=WARN");
			// The same application.yaml (the demo's) and the same exposure, without the
			// starter.
			case "baseline" -> SpringApplication.run(BaselineApplication.class, "--server.port=0",
					"--management.endpoints.web.exposure.include=health,prometheus", "--spring.main.banner-mode=off",
					"--logging.level.root=WARN");
			default -> throw new IllegalArgumentException(
					"Unknown application '" + application + "'; use starter or baseline");
		};
	}

}
