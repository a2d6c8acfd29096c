package dev.controllerobservability.operations;

import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Callable;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.reflect.MethodSignature;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.ControllerObservability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Reactor is optional: with none on the class path, futures are timed until they
 * complete, and the aspect times annotated methods returning a future or a value.
 */
class WithoutReactorTests {

	@Test
	void futuresAndTheAnnotationNeedNoReactor() throws Exception {
		URL[] withoutReactor = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> !entry.contains("projectreactor"))
			.map(WithoutReactorTests::url)
			.toArray(URL[]::new);
		try (URLClassLoader loader = new URLClassLoader(withoutReactor, ClassLoader.getPlatformClassLoader())) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("reactor.core.publisher.Mono"));
			Object counts = loader.loadClass(Probe.class.getName()).getMethod("run").invoke(null);
			assertThat(counts).isEqualTo("future=1 annotatedFuture=1 annotatedValue=1 failures=0");
		}
	}

	private static URL url(String entry) {
		try {
			return new File(entry).toURI().toURL();
		}
		catch (MalformedURLException ex) {
			throw new IllegalArgumentException(entry, ex);
		}
	}

	/** Runs in a class loader without Reactor. */
	public static final class Probe {

		private Probe() {
		}

		public static String run() throws Throwable {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			ControllerObservability observability = ControllerObservability.builder(registry)
				.namespace("karpenter")
				.build();
			CompletableFuture<String> pending = new CompletableFuture<>();
			observability.operations().observeAsync("launch", Tags.empty(), () -> pending);
			pending.complete("node");
			ObservedOperationAspect aspect = new ObservedOperationAspect(observability.operations(),
					observability.failures());
			CompletableFuture<String> annotated = new CompletableFuture<>();
			aspect.observe(joinPoint(Probe.class.getMethod("launchAsync"), () -> annotated));
			annotated.complete("node");
			aspect.observe(joinPoint(Probe.class.getMethod("bind"), () -> "bound"));
			return "future=" + count(registry, "launch") + " annotatedFuture=" + count(registry, "launch_async")
					+ " annotatedValue=" + count(registry, "bind") + " failures=" + observability.failures().count();
		}

		@ObservedOperation("launch-async")
		public CompletableFuture<String> launchAsync() {
			throw new UnsupportedOperationException("called through its join point");
		}

		@ObservedOperation("bind")
		public String bind() {
			throw new UnsupportedOperationException("called through its join point");
		}

		private static long count(SimpleMeterRegistry registry, String operation) {
			return registry.get("karpenter." + operation + ".duration").tags("result", "success").timer().count();
		}

		private static ProceedingJoinPoint joinPoint(Method method, Callable<Object> body) {
			MethodSignature signature = (MethodSignature) Proxy.newProxyInstance(Probe.class.getClassLoader(),
					new Class<?>[] { MethodSignature.class }, (proxy, called, arguments) -> switch (called.getName()) {
						case "getMethod" -> method;
						case "getReturnType" -> method.getReturnType();
						default -> throw new UnsupportedOperationException(called.getName());
					});
			return (ProceedingJoinPoint) Proxy.newProxyInstance(Probe.class.getClassLoader(),
					new Class<?>[] { ProceedingJoinPoint.class },
					(proxy, called, arguments) -> switch (called.getName()) {
						case "getSignature" -> signature;
						case "getArgs" -> new Object[0];
						case "proceed" -> body.call();
						default -> throw new UnsupportedOperationException(called.getName());
					});
		}

	}

}
