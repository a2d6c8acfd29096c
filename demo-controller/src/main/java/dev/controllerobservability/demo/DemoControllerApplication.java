package dev.controllerobservability.demo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * Starts the demo provisioner; metrics are served at {@code /actuator/prometheus}.
 */
@SpringBootApplication
@EnableConfigurationProperties(DemoProperties.class)
public class DemoControllerApplication {

	public static void main(String[] args) {
		SpringApplication.run(DemoControllerApplication.class, args);
	}

}
