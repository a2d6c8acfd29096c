package dev.controllerobservability.operations;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.reflect.MethodSignature;

import dev.controllerobservability.internal.metrics.MetricConventions;
import dev.controllerobservability.RecordingFailures;

/**
 * Times methods annotated with {@link ObservedOperation} through
 * {@link ControllerOperations}. The annotation lookup is done once per method.
 */
@Aspect
public class ObservedOperationAspect {

	private final ControllerOperations operations;

	private final RecordingFailures failures;

	private final Map<Method, Binding> bindings = new ConcurrentHashMap<>();

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
		try {
			Method method = ((MethodSignature) joinPoint.getSignature()).getMethod();
			Binding binding = this.bindings.computeIfAbsent(method, Binding::of);
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
		return this.operations.observeChecked(operation, tags, joinPoint::proceed);
	}

	/** The operation name and which parameter feeds which label, read once. */
	private record Binding(String operation, String[] keys, int[] parameters) {

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
			return new Binding(annotation.value(), Arrays.copyOf(keys, count), Arrays.copyOf(parameters, count));
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
