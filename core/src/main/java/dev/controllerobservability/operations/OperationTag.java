package dev.controllerobservability.operations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a parameter of an {@link ObservedOperation} method the value of an operation
 * label; {@code String.valueOf(argument)} is used, {@code none} for {@code null}.
 * Example: {@code bind(@OperationTag("provisioner") String provisioner, Pod pod)}.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OperationTag {

	/**
	 * Label key, one of {@code controller.observability.operations.tags}.
	 * @return the label key
	 */
	String value();

}
