package dev.controllerobservability.it.aot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.controllerobservability.it.fixtures.Provisioner;
import dev.controllerobservability.it.fixtures.ProvisioningConfiguration;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * A controller whose build runs Spring AOT; its handlers call the {@link Provisioner},
 * which times operations with the annotation and with
 * {@link ControllerOperations#observe}.
 */
@SpringBootApplication
@Import(ProvisioningConfiguration.class)
public class AotControllerApplication {

	/**
	 * Starts the controller.
	 * @param args the command line
	 */
	public static void main(String[] args) {
		SpringApplication.run(AotControllerApplication.class, args);
	}

	@RestController
	static class ProvisioningHandler {

		private final Provisioner provisioner;

		ProvisioningHandler(Provisioner provisioner) {
			this.provisioner = provisioner;
		}

		@GetMapping("/provisioners/{provisioner}/bind/{pods}")
		int bind(@PathVariable String provisioner, @PathVariable int pods) {
			return this.provisioner.bind(provisioner, pods);
		}

		@GetMapping("/provisioners/{provisioner}/launch")
		String launch(@PathVariable String provisioner) {
			return this.provisioner.launch(provisioner);
		}

		@ExceptionHandler(IllegalArgumentException.class)
		@ResponseStatus(HttpStatus.BAD_REQUEST)
		String rejected(IllegalArgumentException ex) {
			return ex.getMessage();
		}

	}

}
