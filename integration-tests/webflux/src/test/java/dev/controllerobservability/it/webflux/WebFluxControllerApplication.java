package dev.controllerobservability.it.webflux;

import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import dev.controllerobservability.it.fixtures.Provisioner;
import dev.controllerobservability.it.fixtures.ProvisioningConfiguration;
import dev.controllerobservability.operations.ControllerOperations;

/**
 * A controller served by WebFlux; its handlers call the {@link Provisioner}, which times
 * operations with the annotation and with {@link ControllerOperations#observe}.
 */
@SpringBootApplication
@Import(ProvisioningConfiguration.class)
public class WebFluxControllerApplication {

	@RestController
	static class ProvisioningHandler {

		private final Provisioner provisioner;

		ProvisioningHandler(Provisioner provisioner) {
			this.provisioner = provisioner;
		}

		@GetMapping("/provisioners/{provisioner}/bind/{pods}")
		Mono<Integer> bind(@PathVariable String provisioner, @PathVariable int pods) {
			return Mono.fromSupplier(() -> this.provisioner.bind(provisioner, pods))
				.onErrorMap(IllegalArgumentException.class,
						(ex) -> new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage(), ex));
		}

		@GetMapping("/provisioners/{provisioner}/launch")
		Mono<String> launch(@PathVariable String provisioner) {
			return Mono.fromSupplier(() -> this.provisioner.launch(provisioner));
		}

	}

}
