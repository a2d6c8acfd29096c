package dev.controllerobservability.it.webflux;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Tags;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import dev.controllerobservability.it.fixtures.Provisioner;
import dev.controllerobservability.it.fixtures.ProvisioningConfiguration;
import dev.controllerobservability.operations.ControllerOperations;
import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.OperationTag;
import dev.controllerobservability.operations.ReactiveOperations;

/**
 * A controller served by WebFlux; its handlers call the {@link Provisioner}, which times
 * operations with the annotation and with {@link ControllerOperations#observe}.
 */
@SpringBootApplication
@Import(ProvisioningConfiguration.class)
public class WebFluxControllerApplication {

	@Bean
	AsyncProvisioner asyncProvisioner() {
		return new AsyncProvisioner();
	}

	/** Provisions asynchronously: the first attempt of each provisioner fails. */
	public static class AsyncProvisioner {

		private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

		/** Completes the pending {@link #provisionWhenReleased} calls when it emits. */
		private final Sinks.Empty<Void> release = Sinks.empty();

		@ObservedOperation("provision")
		public Mono<String> provision(@OperationTag("provisioner") String provisioner) {
			return Mono.fromCallable(() -> {
				int attempt = this.attempts.computeIfAbsent(provisioner, (key) -> new AtomicInteger())
					.incrementAndGet();
				if (attempt == 1) {
					throw new IllegalStateException("first attempt fails");
				}
				return "provisioned " + provisioner + " at attempt " + attempt;
			});
		}

		@ObservedOperation("provision")
		public Mono<String> provisionWhenReleased(@OperationTag("provisioner") String provisioner) {
			return this.release.asMono().then(Mono.just("released " + provisioner));
		}

		public void release() {
			this.release.tryEmitEmpty();
		}

	}

	@RestController
	static class ProvisioningHandler {

		private final Provisioner provisioner;

		private final AsyncProvisioner asyncProvisioner;

		private final ReactiveOperations reactive;

		ProvisioningHandler(Provisioner provisioner, AsyncProvisioner asyncProvisioner, ReactiveOperations reactive) {
			this.provisioner = provisioner;
			this.asyncProvisioner = asyncProvisioner;
			this.reactive = reactive;
		}

		/** Retries once: two subscriptions, two calls. */
		@GetMapping("/provisioners/{provisioner}/provision")
		Mono<String> provision(@PathVariable String provisioner) {
			return this.asyncProvisioner.provision(provisioner).retry(1);
		}

		@GetMapping("/provisioners/{provisioner}/provision-when-released")
		Mono<String> provisionWhenReleased(@PathVariable String provisioner) {
			return this.asyncProvisioner.provisionWhenReleased(provisioner);
		}

		@GetMapping("/provisioners/{provisioner}/nodes")
		Flux<String> nodes(@PathVariable String provisioner) {
			return this.reactive.observe("list-nodes", Tags.of("provisioner", provisioner),
					Flux.just("node-a", "node-b", "node-c"));
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
