package dev.controllerobservability.operations;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.controllerobservability.autoconfigure.ControllerObservabilityAutoConfiguration;
import dev.controllerobservability.autoconfigure.operations.ObservedOperationAspectAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@link ObservedOperation} methods that return a {@code CompletableFuture}, a
 * {@code Mono} or a {@code Flux} are timed until the work ends, one call per
 * subscription, and {@link ReactiveOperations} is a bean where Reactor is.
 */
class AsyncObservedOperationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class, ControllerObservabilityAutoConfiguration.class,
				ObservedOperationAspectAutoConfiguration.class, AopAutoConfiguration.class))
		.withPropertyValues("controller.observability.operations.tags=provisioner");

	@Test
	void providesReactiveOperationsWhereReactorIs() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(ReactiveOperations.class));
		this.contextRunner.withClassLoader(new FilteredClassLoader("reactor."))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ControllerOperations.class)
				.doesNotHaveBean(ReactiveOperations.class));
	}

	@Test
	void annotatedFutureIsTimedUntilItCompletes() {
		this.contextRunner.withUserConfiguration(Launchers.class).run((context) -> {
			Launcher launcher = context.getBean(Launcher.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			CompletableFuture<String> pending = new CompletableFuture<>();
			launcher.prepare(pending);
			CompletableFuture<String> returned = launcher.launchAsync("gpu");
			assertThat(returned).isSameAs(pending);
			assertThat(registry.get("controller.launch.in_flight").gauge().value()).isEqualTo(1);
			assertThat(registry.find("controller.launch.duration").timer()).isNull();
			pending.complete("node");
			assertThat(timer(registry, "success", "none").count()).isEqualTo(1);
			assertThat(registry.get("controller.launch.in_flight").gauge().value()).isZero();
			launcher.prepare(new CompletableFuture<>());
			launcher.launchAsync("gpu").cancel(true);
			assertThat(timer(registry, "cancelled", "none").count()).isEqualTo(1);
		});
	}

	@Test
	void annotatedMonoIsOneCallPerSubscriptionIncludingRetries() {
		this.contextRunner.withUserConfiguration(Launchers.class).run((context) -> {
			Launcher launcher = context.getBean(Launcher.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			Mono<String> launch = launcher.launch("gpu");
			assertThat(launcher.subscriptions()).isZero();
			assertThat(registry.find("controller.launch.duration").timer()).isNull();
			assertThat(launch.retry(3).block()).isEqualTo("node-3");
			assertThat(timer(registry, "error", "IllegalStateException").count()).isEqualTo(2);
			assertThat(timer(registry, "success", "none").count()).isEqualTo(1);
			assertThat(launch.block()).isEqualTo("node-4");
			assertThat(timer(registry, "success", "none").count()).isEqualTo(2);
			assertThat(registry.get("controller.launch.in_flight").gauge().value()).isZero();
		});
	}

	@Test
	void annotatedFluxIsOneCallFromSubscriptionToCompletion() {
		this.contextRunner.withUserConfiguration(Launchers.class).run((context) -> {
			Launcher launcher = context.getBean(Launcher.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(launcher.nodes("gpu").collectList().block()).containsExactly("a", "b", "c");
			assertThat(timer(registry, "success", "none").count()).isEqualTo(1);
			// take(1) cancels the subscription after the first node.
			assertThat(launcher.nodes("gpu").take(1).blockLast()).isEqualTo("a");
			assertThat(timer(registry, "cancelled", "none").count()).isEqualTo(1);
		});
	}

	@Test
	void methodThatThrowsBeforeReturningItsPublisherIsOneFailedCall() {
		this.contextRunner.withUserConfiguration(Launchers.class).run((context) -> {
			Launcher launcher = context.getBean(Launcher.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThatIllegalStateException().isThrownBy(() -> launcher.launch("unknown"))
				.withMessage("no provisioner unknown");
			assertThat(registry.get("controller.launch.duration")
				.tags("provisioner", "unknown", "result", "error", "error", "IllegalStateException")
				.timer()
				.count()).isEqualTo(1);
			assertThat(launcher.nothing("gpu")).isNull();
			assertThat(timer(registry, "error", "NullPointerException").count()).isEqualTo(1);
		});
	}

	private static Timer timer(MeterRegistry registry, String result, String error) {
		return registry.get("controller.launch.duration")
			.tags("provisioner", "gpu", "result", result, "error", error)
			.timer();
	}

	@Configuration(proxyBeanMethods = false)
	static class Launchers {

		@Bean
		Launcher launcher() {
			return new Launcher();
		}

	}

	/** Launches nodes asynchronously. */
	static class Launcher {

		private final AtomicInteger subscriptions = new AtomicInteger();

		private volatile CompletableFuture<String> next;

		/** Sets the future {@link #launchAsync} returns next. */
		public void prepare(CompletableFuture<String> next) {
			this.next = next;
		}

		public int subscriptions() {
			return this.subscriptions.get();
		}

		@ObservedOperation("launch")
		public CompletableFuture<String> launchAsync(@OperationTag("provisioner") String provisioner) {
			return this.next;
		}

		/** Fails the first two subscriptions. */
		@ObservedOperation("launch")
		public Mono<String> launch(@OperationTag("provisioner") String provisioner) {
			if ("unknown".equals(provisioner)) {
				throw new IllegalStateException("no provisioner " + provisioner);
			}
			return Mono.fromCallable(() -> {
				int subscription = this.subscriptions.incrementAndGet();
				if (subscription < 3) {
					throw new IllegalStateException("attempt " + subscription);
				}
				return "node-" + subscription;
			});
		}

		@ObservedOperation("launch")
		public Flux<String> nodes(@OperationTag("provisioner") String provisioner) {
			return Flux.just("a", "b", "c");
		}

		@ObservedOperation("launch")
		public Mono<String> nothing(@OperationTag("provisioner") String provisioner) {
			return null;
		}

	}

}
