package dev.controllerobservability.operations;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.reflect.MethodSignature;
import org.jspecify.annotations.Nullable;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.RecordingFailures;

/**
 * Times methods annotated with {@link ObservedOperation} through
 * {@link ControllerOperations}. The annotation lookup is done once per method. A method
 * returning a {@link CompletionStage} is timed until the stage completes
 * ({@link ControllerOperations#observeAsync}), and, where Reactor is on the class path,
 * one returning a {@code Mono} or {@code Flux} from each subscription to its termination
 * ({@link ReactiveOperations}); any other method for the call itself.
 */
@Aspect
public class ObservedOperationAspect {

	private final ControllerOperations operations;

	private final RecordingFailures failures;

	private final Map<Method, Binding> bindings = new ConcurrentHashMap<>();

	/** Created on the first annotated method returning a publisher. */
	private volatile @Nullable ReactiveOperations reactive;

	/**
	 * Creates the aspect.
	 * @param operations where the annotated calls are timed
	 * @param failures where a failure to read the operation's tags goes
	 */
	public ObservedOperationAspect(ControllerOperations operations, RecordingFailures failures) {
		this.operations = operations;
		this.failures = failures;
	}

	/**
	 * Times one call of an annotated method.
	 * @param joinPoint the call
	 * @return what the method returned
	 * @throws Throwable what the method threw, unchanged
	 */
	@Around("execution(@dev.controllerobservability.operations.ObservedOperation * *(..))")
	public Object observe(ProceedingJoinPoint joinPoint) throws Throwable {
		String operation;
		Iterable<Tag> tags;
		Binding binding;
		try {
			Method method = ((MethodSignature) joinPoint.getSignature()).getMethod();
			binding = this.bindings.computeIfAbsent(method, Binding::of);
			operation = binding.operation();
			tags = binding.tags(joinPoint.getArgs(), this.failures);
		}
		catch (Throwable ex) {
			if (RecordingFailures.isFatal(ex)) {
				throw ex;
			}
			this.failures.record("binding of an @ObservedOperation method", ex);
			return joinPoint.proceed();
		}
		return switch (binding.returns()) {
			case STAGE ->
				this.operations.observeAsyncChecked(operation, tags, () -> (CompletionStage<?>) joinPoint.proceed());
			case PUBLISHER -> observePublisher(operation, tags, joinPoint);
			case VALUE -> this.operations.observeChecked(operation, tags, joinPoint::proceed);
		};
	}

	/**
	 * Times each subscription to the publisher the method returns. A method that throws
	 * instead is recorded as one failed call; one that returns {@code null} as failed
	 * with a {@link NullPointerException}.
	 */
	private Object observePublisher(String operation, Iterable<Tag> tags, ProceedingJoinPoint joinPoint)
			throws Throwable {
		Object publisher;
		try {
			publisher = joinPoint.proceed();
		}
		catch (Throwable ex) {
			return this.operations.observeChecked(operation, tags, () -> {
				throw ex;
			});
		}
		if (publisher == null) {
			NullPointerException failure = new NullPointerException(
					"@ObservedOperation(\"" + operation + "\") method returned null instead of a Mono or Flux");
			try {
				this.operations.observeChecked(operation, tags, () -> {
					throw failure;
				});
			}
			catch (NullPointerException ex) {
				// Recorded: the caller gets the null the method returned.
			}
			return null;
		}
		return ReactorPublishers.observe(reactive(), operation, tags, publisher);
	}

	private ReactiveOperations reactive() {
		ReactiveOperations reactive = this.reactive;
		if (reactive == null) {
			reactive = ReactiveOperations.of(this.operations);
			this.reactive = reactive;
		}
		return reactive;
	}

	/** How an annotated method's work ends. */
	private enum Returns {

		/** With the call. */
		VALUE,

		/** With the {@link CompletionStage} it returns. */
		STAGE,

		/** With each subscription to the {@code Mono} or {@code Flux} it returns. */
		PUBLISHER;

		/** Whether Reactor is on the class path: without it no method returns a Mono. */
		private static final boolean REACTOR = isPresent("reactor.core.publisher.Mono");

		static Returns of(Method method) {
			Class<?> type = method.getReturnType();
			if (CompletionStage.class.isAssignableFrom(type)) {
				return STAGE;
			}
			return (REACTOR && ReactorPublishers.isPublisher(type)) ? PUBLISHER : VALUE;
		}

		private static boolean isPresent(String className) {
			try {
				Class.forName(className, false, Returns.class.getClassLoader());
				return true;
			}
			catch (ClassNotFoundException | LinkageError ex) {
				return false;
			}
		}

	}

	/** The operation name and which parameter feeds which label, read once. */
	private record Binding(String operation, String[] keys, int[] parameters, Returns returns) {

		static Binding of(Method method) {
			ObservedOperation annotation = method.getAnnotation(ObservedOperation.class);
			Annotation[][] parameterAnnotations = method.getParameterAnnotations();
			int count = 0;
			String[] keys = new String[parameterAnnotations.length];
			int[] parameters = new int[parameterAnnotations.length];
			for (int i = 0; i < parameterAnnotations.length; i++) {
				for (Annotation candidate : parameterAnnotations[i]) {
					if (candidate instanceof OperationTag tag) {
						keys[count] = tag.value();
						parameters[count] = i;
						count++;
					}
				}
			}
			return new Binding(annotation.value(), Arrays.copyOf(keys, count), Arrays.copyOf(parameters, count),
					Returns.of(method));
		}

		Iterable<Tag> tags(Object[] arguments, RecordingFailures failures) {
			if (this.keys.length == 0) {
				return Tags.empty();
			}
			String[] keyValues = new String[this.keys.length * 2];
			for (int i = 0; i < this.keys.length; i++) {
				keyValues[2 * i] = this.keys[i];
				keyValues[2 * i + 1] = value(arguments[this.parameters[i]], this.keys[i], failures);
			}
			return Tags.of(keyValues);
		}

		/**
		 * An argument's label value: {@code none} for {@code null}, and for an argument
		 * whose {@code toString()} gives {@code null} or throws (counted as a failure).
		 */
		private static String value(Object argument, String key, RecordingFailures failures) {
			if (argument == null) {
				return MetricConventions.NONE;
			}
			try {
				String value = argument.toString();
				if (value == null) {
					failures.record("value of @OperationTag(\"" + key + "\")", new IllegalArgumentException(
							argument.getClass().getName() + ".toString() returned null; recorded as 'none'"));
					return MetricConventions.NONE;
				}
				return value;
			}
			catch (RuntimeException ex) {
				failures.record("value of @OperationTag(\"" + key + "\")", ex);
				return MetricConventions.NONE;
			}
		}

	}

}
