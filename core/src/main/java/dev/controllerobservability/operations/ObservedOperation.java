package dev.controllerobservability.operations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Times every call of the annotated method as an operation, exactly as
 * {@link ControllerOperations#observeChecked(String, Iterable, io.micrometer.observation.Observation.CheckedCallable)}
 * does. Label values come from parameters annotated with {@link OperationTag}. Active
 * when AspectJ is on the classpath (for example through
 * {@code spring-boot-starter-aspectj}) and the method is called through its Spring bean.
 * Example:
 *
 * <pre class="code">
 * &#64;ObservedOperation("launch")
 * public Node launch(&#64;OperationTag("provisioner") String provisioner, InstanceType type) { ... }
 * </pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ObservedOperation {

	/**
	 * Operation name, such as {@code bind} or {@code apply-packing}.
	 * @return the operation name
	 */
	String value();

}
