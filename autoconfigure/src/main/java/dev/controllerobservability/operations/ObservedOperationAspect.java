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

import dev.controllerobservability.metrics.MetricConventions;

/**
 * Times methods annotated with {@link ObservedOperation} through
 * {@link ControllerOperations}. The annotation lookup is done once per method.
 */
@Aspect
public class ObservedOperationAspect {

	private final ControllerOperations operations;

	private final Map<Method, Binding> bindings = new ConcurrentHashMap<>();

	/**
	 * Creates the aspect.
	 * @param operations where the annotated calls are timed
	 */
	public ObservedOperationAspect(ControllerOperations operations) {
		this.operations = operations;
	}

	/**
	 * Times one call of an annotated method.
	 * @param joinPoint the call
	 * @return what the method returned
	 * @throws Throwable what the method threw, unchanged
	 */
	@Around("execution(@dev.controllerobservability.operations.ObservedOperation * *(..))")
	public Object observe(ProceedingJoinPoint joinPoint) throws Throwable {
		Method method = ((MethodSignature) joinPoint.getSignature()).getMethod();
		Binding binding = this.bindings.computeIfAbsent(method, Binding::of);
		return this.operations.observeChecked(binding.operation(), binding.tags(joinPoint.getArgs()),
				joinPoint::proceed);
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
			return new Binding(annotation.value(), Arrays.copyOf(keys, count),
					Arrays.copyOf(parameters, count));
		}

		Iterable<Tag> tags(Object[] arguments) {
			if (this.keys.length == 0) {
				return Tags.empty();
			}
			String[] keyValues = new String[this.keys.length * 2];
			for (int i = 0; i < this.keys.length; i++) {
				Object argument = arguments[this.parameters[i]];
				keyValues[2 * i] = this.keys[i];
				keyValues[2 * i + 1] = (argument != null) ? String.valueOf(argument) : MetricConventions.NONE;
			}
			return Tags.of(keyValues);
		}

	}

}
