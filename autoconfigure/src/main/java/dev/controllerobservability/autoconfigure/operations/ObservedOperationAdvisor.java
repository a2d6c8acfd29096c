package dev.controllerobservability.autoconfigure.operations;

import java.util.function.Supplier;

import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import org.springframework.aop.Pointcut;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.aspectj.MethodInvocationProceedingJoinPoint;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.util.function.SingletonSupplier;

import dev.controllerobservability.operations.ObservedOperation;
import dev.controllerobservability.operations.ObservedOperationAspect;

/**
 * Applies the {@link ObservedOperationAspect} to methods annotated with
 * {@link ObservedOperation} as a plain Spring AOP advisor. Registered as an
 * {@code @Aspect} bean, the aspect made Spring parse its pointcut with the AspectJ weaver
 * and match it against every method of every bean, which loaded several hundred weaver
 * classes and the types in every bean's method signatures at start-up. An annotation
 * check per method matches the same methods: those that carry the annotation themselves,
 * also when called through an interface.
 * <p>
 * The aspect is created on the first advised call, not when the proxy creator collects
 * the advisors (before most beans exist), so that nothing it depends on is created ahead
 * of the post-processors that configure it.
 */
final class ObservedOperationAdvisor extends AbstractPointcutAdvisor {

	private final Pointcut pointcut = new AnnotationMatchingPointcut(null, ObservedOperation.class, false);

	private final Advice advice;

	ObservedOperationAdvisor(Supplier<ObservedOperationAspect> aspect) {
		this.advice = new Interceptor(SingletonSupplier.of(aspect));
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.advice;
	}

	/**
	 * Hands each advised call to the aspect as the join point Spring's own AspectJ advice
	 * would have given it.
	 */
	private record Interceptor(Supplier<ObservedOperationAspect> aspect) implements MethodInterceptor {

		@Override
		public Object invoke(MethodInvocation invocation) throws Throwable {
			if (!(invocation instanceof ProxyMethodInvocation proxyInvocation)) {
				// Spring's proxies always pass one; anything else is left untimed.
				return invocation.proceed();
			}
			return this.aspect.get().observe(new MethodInvocationProceedingJoinPoint(proxyInvocation));
		}

	}

}
